extension Distributions {
    /// P(X ≤ x) for X ~ χ²(df); 0 for x ≤ 0, NaN for df ≤ 0.
    public static func chiSquareCDF(_ x: Double, df: Double) -> Double {
        guard df > 0, !x.isNaN else { return .nan }
        return IncompleteGamma.regularized(a: df / 2, x: x / 2).lower
    }

    /// P(X > x) for X ~ χ²(df), computed directly (tiny p-values keep their digits); NaN for df ≤ 0.
    public static func chiSquareSurvival(_ x: Double, df: Double) -> Double {
        guard df > 0, !x.isNaN else { return .nan }
        return IncompleteGamma.regularized(a: df / 2, x: x / 2).upper
    }
}
