import Foundation

/// Log-gamma pieces that keep their digits when the arguments are large.
enum LogGamma {
    static let halfLogTwoPi = 0.918_938_533_204_672_741_78

    /// `lgamma(a) − [(a − ½)·log a − a + ½·log 2π]`, the Stirling series' remainder, for a ≥ 10.
    static func stirlingCorrection(_ a: Double) -> Double {
        let inverse = 1 / a
        let inverse2 = inverse * inverse
        return inverse * (1.0 / 12 - inverse2 * (1.0 / 360 - inverse2 * (1.0 / 1260 - inverse2 * (1.0 / 1680 - inverse2 / 1188))))
    }

    /// `log B(a, b)`; for large arguments the Stirling form, so that no large terms cancel.
    static func logBeta(_ a: Double, _ b: Double) -> Double {
        let small = min(a, b)
        let large = max(a, b)
        if large < 10 {
            return lgamma(a) + lgamma(b) - lgamma(a + b)
        }
        let sum = a + b
        if small < 10 {
            // lgamma(large) − lgamma(large + small) without subtracting two large numbers.
            let difference = -(large - 0.5) * log1p(small / large) - small * log(sum) + small
                + stirlingCorrection(large) - stirlingCorrection(sum)
            return lgamma(small) + difference
        }
        return halfLogTwoPi - 0.5 * log(sum)
            + (a - 0.5) * log(a / sum) + (b - 0.5) * log(b / sum)
            + stirlingCorrection(a) + stirlingCorrection(b) - stirlingCorrection(sum)
    }
}
