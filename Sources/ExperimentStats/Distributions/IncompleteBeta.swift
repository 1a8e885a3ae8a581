import Foundation

/// The regularized incomplete beta function I_x(a, b) and its complement, by Lentz's continued fraction.
enum IncompleteBeta {
    /// Both tails `(I_x(a,b), 1 − I_x(a,b))`, each computed directly where it is the small one.
    ///
    /// `x` and `y = 1 − x` are passed separately (with their logs) so a caller can hand over a value
    /// very close to 1 without losing the digits of its complement.
    static func regularized(a: Double, b: Double, x: Double, y: Double, logX: Double, logY: Double) -> (lower: Double, upper: Double) {
        // x (or y) may underflow to 0 while its log is still finite: the front factor carries it.
        if logX == -.infinity { return (0, 1) }
        if logY == -.infinity { return (1, 0) }
        if x < (a + 1) / (a + b + 2) {
            let lower = exp(a * logX + b * logY - LogGamma.logBeta(a, b)) * continuedFraction(a: a, b: b, x: x) / a
            return (lower, 1 - lower)
        }
        let upper = exp(b * logY + a * logX - LogGamma.logBeta(a, b)) * continuedFraction(a: b, b: a, x: y) / b
        return (1 - upper, upper)
    }

    /// The continued fraction of I_x(a, b) (Numerical Recipes' `betacf`, modified Lentz).
    static func continuedFraction(a: Double, b: Double, x: Double) -> Double {
        let tiny = 1e-300
        let epsilon = 1e-16
        let qab = a + b
        let qap = a + 1
        let qam = a - 1
        var c = 1.0
        var d = 1 - qab * x / qap
        if abs(d) < tiny { d = tiny }
        d = 1 / d
        var h = d
        let limit = 10_000 + Int(min(1e7, 20 * (a + b).squareRoot()))
        var m = 1
        while m <= limit {
            let dm = Double(m)
            let m2 = 2 * dm
            var aa = dm * (b - dm) * x / ((qam + m2) * (a + m2))
            d = 1 + aa * d
            if abs(d) < tiny { d = tiny }
            c = 1 + aa / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            h *= d * c
            aa = -(a + dm) * (qab + dm) * x / ((a + m2) * (qap + m2))
            d = 1 + aa * d
            if abs(d) < tiny { d = tiny }
            c = 1 + aa / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            let delta = d * c
            h *= delta
            if abs(delta - 1) < epsilon { break }
            m += 1
        }
        return h
    }
}
