import Foundation

/// The regularized incomplete gamma functions P(a, x) and Q(a, x) = 1 − P(a, x).
enum IncompleteGamma {
    /// Both tails `(P, Q)`: the series below x = a + 1, Lentz's continued fraction above, each
    /// computing its own tail directly.
    static func regularized(a: Double, x: Double) -> (lower: Double, upper: Double) {
        if x <= 0 { return (0, 1) }
        if x == .infinity { return (1, 0) }
        let front = exp(logFront(a: a, x: x))
        if x < a + 1 {
            let lower = front * series(a: a, x: x)
            return (lower, 1 - lower)
        }
        let upper = front * continuedFraction(a: a, x: x)
        return (1 - upper, upper)
    }

    /// `log(xᵃ·e⁻ˣ/Γ(a))`; for a ≥ 10 as `−a·(λ − 1 − log λ) + ½·log(a/2π) − stirling(a)`, λ = x/a,
    /// so the large terms `a·log x` and `lgamma(a)` never cancel.
    static func logFront(a: Double, x: Double) -> Double {
        if a < 10 {
            return a * log(x) - x - lgamma(a)
        }
        let lambda = x / a
        // Near λ = 1 through log1p of the exact difference; away from it log λ itself keeps the digits.
        let deviance: Double
        if abs(lambda - 1) < 0.5 {
            let d = (x - a) / a
            deviance = d - log1p(d)
        } else {
            deviance = lambda - 1 - log(lambda)
        }
        return -a * deviance + 0.5 * log(a) - LogGamma.halfLogTwoPi - LogGamma.stirlingCorrection(a)
    }

    /// Σ xⁿ/(a(a+1)…(a+n)), so that P = front · series.
    static func series(a: Double, x: Double) -> Double {
        var term = 1 / a
        var sum = term
        var ap = a
        let limit = 10_000 + Int(min(1e7, 20 * a.squareRoot()))
        for _ in 0..<limit {
            ap += 1
            term *= x / ap
            sum += term
            if abs(term) < abs(sum) * 1e-17 { break }
        }
        return sum
    }

    /// The continued fraction of Q (Numerical Recipes' `gcf`, modified Lentz), so that Q = front · fraction.
    static func continuedFraction(a: Double, x: Double) -> Double {
        let tiny = 1e-300
        var b = x + 1 - a
        var c = 1 / tiny
        var d = 1 / b
        var h = d
        let limit = 10_000 + Int(min(1e7, 20 * a.squareRoot()))
        var i = 1
        while i <= limit {
            let di = Double(i)
            let an = -di * (di - a)
            b += 2
            d = an * d + b
            if abs(d) < tiny { d = tiny }
            c = b + an / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            let delta = d * c
            h *= delta
            if abs(delta - 1) < 1e-16 { break }
            i += 1
        }
        return h
    }
}
