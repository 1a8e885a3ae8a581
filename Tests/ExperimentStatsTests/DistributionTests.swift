import Testing
@testable import ExperimentStats

/// The distribution functions against 60-digit mpmath references (DistributionReferences.swift,
/// written by Tests/stats/distribution_references.py), to 1e-9 relative over the whole range.
struct DistributionTests {
    static let tolerance = 1e-9

    /// Relative error of `value` against `expected` (absolute when `expected` is 0).
    static func error(_ value: Double, _ expected: Double) -> Double {
        if value == expected { return 0 }
        return expected == 0 ? abs(value) : abs(value - expected) / abs(expected)
    }

    @Test func normalTails() {
        for (x, cdf, survival) in DistributionReferences.normal {
            #expect(Self.error(Distributions.normalCDF(x), cdf) <= Self.tolerance, "Φ(\(x))")
            #expect(Self.error(Distributions.normalSurvival(x), survival) <= Self.tolerance, "1 − Φ(\(x))")
        }
    }

    @Test func normalQuantile() {
        for (p, quantile) in DistributionReferences.normalQuantile {
            #expect(Self.error(Distributions.normalQuantile(p), quantile) <= Self.tolerance, "Φ⁻¹(\(p))")
        }
        #expect(Distributions.normalQuantile(0) == -.infinity)
        #expect(Distributions.normalQuantile(1) == .infinity)
        #expect(Distributions.normalQuantile(1.5).isNaN)
        #expect(Distributions.normalQuantile(-0.1).isNaN)
    }

    @Test func studentTTails() {
        #expect(DistributionReferences.studentT.count > 200)
        for (t, df, survival) in DistributionReferences.studentT {
            #expect(Self.error(Distributions.studentTSurvival(t, df: df), survival) <= Self.tolerance, "P(T > \(t)), df \(df)")
            #expect(Self.error(Distributions.studentTCDF(-t, df: df), survival) <= Self.tolerance, "P(T ≤ −\(t)), df \(df)")
            #expect(Self.error(Distributions.studentTCDF(t, df: df), 1 - survival) <= Self.tolerance, "P(T ≤ \(t)), df \(df)")
        }
    }

    @Test func studentTQuantile() {
        #expect(DistributionReferences.studentTQuantile.count > 150)
        for (p, df, quantile) in DistributionReferences.studentTQuantile {
            #expect(Self.error(Distributions.studentTQuantile(p, df: df), quantile) <= Self.tolerance, "t⁻¹(\(p)), df \(df)")
        }
        #expect(Distributions.studentTQuantile(0.5, df: 7) == 0)
        #expect(Distributions.studentTQuantile(0, df: 7) == -.infinity)
        #expect(Distributions.studentTQuantile(0.975, df: 0).isNaN)
    }

    @Test func chiSquareTails() {
        #expect(DistributionReferences.chiSquare.count > 150)
        for (x, df, cdf, survival) in DistributionReferences.chiSquare {
            #expect(Self.error(Distributions.chiSquareCDF(x, df: df), cdf) <= Self.tolerance, "P(X ≤ \(x)), df \(df)")
            #expect(Self.error(Distributions.chiSquareSurvival(x, df: df), survival) <= Self.tolerance, "P(X > \(x)), df \(df)")
        }
        #expect(Distributions.chiSquareSurvival(0, df: 3) == 1)
        #expect(Distributions.chiSquareSurvival(-1, df: 3) == 1)
        #expect(Distributions.chiSquareSurvival(.infinity, df: 3) == 0)
        #expect(Distributions.chiSquareSurvival(1, df: 0).isNaN)
    }

    @Test func quantilesInvertTheirTails() {
        for df in [1.0, 2.5, 9, 40, 1e3, 1e6] {
            for p in [1e-250, 1e-12, 0.01, 0.3, 0.8, 0.999] {
                let t = Distributions.studentTQuantile(p, df: df)
                let back = p < 0.5 ? Distributions.studentTCDF(t, df: df) : 1 - Distributions.studentTSurvival(t, df: df)
                #expect(Self.error(back, p) <= 1e-12, "df \(df), p \(p)")
            }
        }
    }

    @Test func aHugeDegreesOfFreedomIsTheNormal() {
        #expect(Self.error(Distributions.studentTSurvival(3, df: 1e17), Distributions.normalSurvival(3)) <= 1e-15)
        #expect(Distributions.studentTQuantile(0.975, df: 1e17) == Distributions.normalQuantile(0.975))
    }
}
