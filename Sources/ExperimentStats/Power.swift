import Foundation

/// The power of a two-sided z-test (α = 0.05) on the relative lift, with the delta-method variance
/// of SPEC §8, and the traffic it takes to reach a target power (SPEC §12 "Power and duration").
public enum Power {
    /// The two-sided critical value at α = 0.05.
    public static let z = Distributions.normalQuantile(1 - Comparison.alpha / 2)
    /// `days_remaining` looks this far ahead, then gives up (null).
    public static let horizonDays = 365

    /// The power to detect a relative effect `mde` with `controlSubjects` and `treatmentSubjects`:
    /// `Φ(m/s − z) + Φ(−m/s − z)`, s = √Var(Δ) at μC and μT = μC·(1 + m). nil without traffic, with
    /// μC = 0 or a variance ≤ 0 (nothing to compute a standard error from).
    public static func power(mde: Double, controlMean: Double, controlVariance: Double, treatmentVariance: Double,
                             controlSubjects: Double, treatmentSubjects: Double) -> Double? {
        guard controlSubjects > 0, treatmentSubjects > 0, controlMean != 0, controlVariance > 0, treatmentVariance > 0 else { return nil }
        let meanT = controlMean * (1 + mde)
        let meanC2 = controlMean * controlMean
        let variance = treatmentVariance / (treatmentSubjects * meanC2) + controlVariance * meanT * meanT / (controlSubjects * meanC2 * meanC2)
        guard variance.isFinite, variance > 0 else { return nil }
        let ratio = abs(mde) / variance.squareRoot()
        return Distributions.normalCDF(ratio - z) + Distributions.normalCDF(-ratio - z)
    }

    /// The fewest whole days d ≥ 0 after which, with `perDay` more subjects a day in each group, the
    /// power reaches `target`; nil when it does not within `horizonDays`.
    public static func daysRemaining(target: Double, mde: Double, controlMean: Double, controlVariance: Double, treatmentVariance: Double,
                                     controlSubjects: Double, treatmentSubjects: Double,
                                     controlPerDay: Double, treatmentPerDay: Double) -> Int? {
        (0...horizonDays).first { day in
            let d = Double(day)
            let value = power(mde: mde, controlMean: controlMean, controlVariance: controlVariance, treatmentVariance: treatmentVariance,
                              controlSubjects: controlSubjects + d * controlPerDay, treatmentSubjects: treatmentSubjects + d * treatmentPerDay)
            return (value ?? 0) >= target
        }
    }

    /// A proportion metric planned before any traffic: the fewest subjects per variant (equal groups)
    /// for which the power at `baseline` rate and relative effect `mde` reaches `target`; nil when the
    /// inputs give no power (a rate of 0 or 1, or an effect beyond 100 %) or no count up to 10¹² does.
    public static func subjectsPerVariant(baseline: Double, mde: Double, target: Double) -> Int? {
        let treatment = baseline * (1 + mde)
        guard baseline > 0, baseline < 1, treatment > 0, treatment < 1 else { return nil }
        func reaches(_ n: Int) -> Bool {
            (power(mde: mde, controlMean: baseline, controlVariance: baseline * (1 - baseline), treatmentVariance: treatment * (1 - treatment),
                   controlSubjects: Double(n), treatmentSubjects: Double(n)) ?? 0) >= target
        }
        var high = 2
        while !reaches(high) {
            guard high < 1_000_000_000_000 else { return nil }
            high *= 2
        }
        var low = high / 2
        if reaches(low) { return low }
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if reaches(middle) { high = middle } else { low = middle }
        }
        return high
    }
}
