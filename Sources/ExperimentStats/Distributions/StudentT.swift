import Foundation

extension Distributions {
    /// Beyond this many degrees of freedom Student's t is the normal to well under 1e-9 relative.
    static let normalLimitDF = 1e16
    /// Above this many degrees of freedom the tail is integrated (the continued fraction, fed x ≈ 1,
    /// loses digits to the rounding of x; near 1e9 degrees of freedom it is off by 1e-8).
    static let quadratureDF = 5e5

    /// P(T ≤ t) for Student's t with `df` (> 0, not necessarily whole) degrees of freedom.
    public static func studentTCDF(_ t: Double, df: Double) -> Double {
        guard df > 0, !t.isNaN else { return .nan }
        return t < 0 ? studentTSurvival(-t, df: df) : 1 - studentTSurvival(t, df: df)
    }

    /// P(T > t), computed directly so that tiny upper tails keep their relative accuracy.
    public static func studentTSurvival(_ t: Double, df: Double) -> Double {
        guard df > 0, !t.isNaN else { return .nan }
        if t < 0 { return 1 - studentTSurvival(-t, df: df) }
        if t == 0 { return 0.5 }
        if t == .infinity { return 0 }
        if df > normalLimitDF { return normalSurvival(t) }
        if df > quadratureDF { return studentTSurvivalByQuadrature(t, df: df) }
        // S(t) = ½·I_x(ν/2, ½) with x = ν/(ν + t²) = 1/(1 + r²), r = t/√ν; logs survive r² overflowing.
        let r = t / df.squareRoot()
        let x: Double, y: Double, logX: Double, logY: Double
        if r < 1e150 {
            let r2 = r * r
            x = 1 / (1 + r2)
            y = r2 / (1 + r2)
            logX = -log1p(r2)
            logY = log(y)
        } else {
            logX = -2 * log(r)
            x = exp(logX)
            y = 1
            logY = 0
        }
        return 0.5 * IncompleteBeta.regularized(a: df / 2, b: 0.5, x: x, y: y, logX: logX, logY: logY).lower
    }

    /// The log of the density, finite far beyond where the density itself underflows.
    static func studentTLogPDF(_ t: Double, df: Double) -> Double {
        if df > normalLimitDF { return -0.5 * t * t - 0.5 * log(2 * Double.pi) }
        let r = abs(t) / df.squareRoot()
        let logOnePlusR2 = r < 1e150 ? log1p(r * r) : 2 * log(r)
        return -LogGamma.logBeta(df / 2, 0.5) - 0.5 * log(df) - (df + 1) / 2 * logOnePlusR2
    }

    /// The t with P(T ≤ t) = p: closed forms for 1 and 2 degrees of freedom, otherwise a safeguarded
    /// Newton iteration on the log of the tail, started from the Cornish–Fisher expansion.
    public static func studentTQuantile(_ p: Double, df: Double) -> Double {
        guard df > 0, p >= 0, p <= 1 else { return .nan }
        if p == 0 { return -.infinity }
        if p == 1 { return .infinity }
        if p == 0.5 { return 0 }
        let upper = p > 0.5
        let t = studentTUpperTailQuantile(upper ? 1 - p : p, df: df)
        return upper ? t : -t
    }

    /// The t ≥ 0 with P(T > t) = q, for 0 < q < ½.
    static func studentTUpperTailQuantile(_ q: Double, df: Double) -> Double {
        if df == 1 { return 1 / tan(Double.pi * q) }
        if df == 2 { return (1 - 2 * q) / (2 * q * (1 - q)).squareRoot() }
        if df > normalLimitDF { return -normalQuantile(q) }
        let z = -normalQuantile(q)
        let z2 = z * z
        var t = z + z * (z2 + 1) / (4 * df)
            + z * ((5 * z2 + 16) * z2 + 3) / (96 * df * df)
            + z * (((3 * z2 + 19) * z2 + 17) * z2 - 15) / (384 * df * df * df)
        if !(t > 0) || !t.isFinite { t = 1 }
        // Bracket the root: S(lower) ≥ q ≥ S(upper).
        var lower = 0.0
        var upper = t
        while studentTSurvival(upper, df: df) > q {
            lower = upper
            upper = upper < 1e10 ? upper * 4 : upper * 1e10
            if upper == .infinity { return .infinity }
        }
        let logQ = log(q)
        for _ in 0..<200 {
            let s = studentTSurvival(t, df: df)
            if s == q { return t }
            if s > q { lower = t } else { upper = t }
            // Newton on g(t) = log S(t) − log q, whose derivative is −f(t)/S(t).
            var next = t + (log(s) - logQ) * exp(log(s) - studentTLogPDF(t, df: df))
            if !(next > lower && next < upper) {
                next = lower > 0 && upper / lower > 4 ? lower.squareRoot() * upper.squareRoot() : lower + (upper - lower) / 2
            }
            if abs(next - t) <= 4 * Double.ulpOfOne * next { return next }
            t = next
        }
        return t
    }

    /// P(T > t) for t ≥ 0 as ∫ f over [t, ∞) by exp-sinh quadrature (w = e^{π/2·sinh τ}), halving the
    /// step until the sum settles to 1e-14; the density is taken in logs, so tiny tails keep their digits.
    static func studentTSurvivalByQuadrature(_ t: Double, df: Double) -> Double {
        let logC = -LogGamma.logBeta(df / 2, 0.5) - 0.5 * log(df)
        let exponent = (df + 1) / 2
        let rootDF = df.squareRoot()
        func term(_ tau: Double) -> Double {
            let w = exp(Double.pi / 2 * sinh(tau))
            let weight = w * Double.pi / 2 * cosh(tau)
            let r = (t + w) / rootDF
            return weight * exp(logC - exponent * log1p(r * r))
        }
        func trapezoid(_ h: Double) -> Double {
            var sum = term(0)
            for direction in [1.0, -1.0] {
                var k = 1.0
                while true {
                    let value = term(direction * k * h)
                    sum += value
                    if value <= sum * 1e-18 || k * h > 8 { break }
                    k += 1
                }
            }
            return sum * h
        }
        var h = 0.25
        var previous = trapezoid(h)
        for _ in 0..<8 {
            h /= 2
            let current = trapezoid(h)
            if abs(current - previous) <= 1e-14 * current { return current }
            previous = current
        }
        return previous
    }
}
