/// The sample-ratio check's numbers: Pearson's χ² of observed subjects against the expected shares.
public struct SampleRatioResult: Equatable, Sendable {
    public let chiSquare: Double
    public let degreesOfFreedom: Int
    /// Probability of a split at least this uneven if traffic really followed the expected shares.
    public let pValue: Double

    /// SPEC §8's mismatch: p below 0.001.
    public var isMismatch: Bool { pValue < SampleRatio.mismatchThreshold }

    public init(chiSquare: Double, degreesOfFreedom: Int, pValue: Double) {
        self.chiSquare = chiSquare
        self.degreesOfFreedom = degreesOfFreedom
        self.pValue = pValue
    }
}

/// The sample-ratio mismatch check of SPEC §8.
public enum SampleRatio {
    /// SPEC §8: a p-value below this is a sample-ratio mismatch.
    public static let mismatchThreshold = 0.001

    /// Pearson χ² of observed counts vs expected shares (normalised), k − 1 degrees of freedom.
    ///
    /// nil when the inputs differ in length, a count is negative, a share is negative or not finite,
    /// fewer than 2 groups have a positive share, or there are no subjects. A group with share 0 is
    /// left out when it has no subjects; one with subjects is impossible under the expected split,
    /// so χ² is infinite and the p-value 0.
    public static func check(observed: [Int], expectedShares: [Double]) -> SampleRatioResult? {
        guard observed.count == expectedShares.count,
              observed.allSatisfy({ $0 >= 0 }),
              expectedShares.allSatisfy({ $0.isFinite && $0 >= 0 })
        else { return nil }
        let groups = zip(observed, expectedShares).filter { $0.1 > 0 }
        // Counted in a Double: counts near Int.max must not overflow their sum.
        let total = observed.reduce(0.0) { $0 + Double($1) }
        let shareTotal = groups.reduce(0.0) { $0 + $1.1 }
        guard groups.count >= 2, total > 0, shareTotal > 0 else { return nil }
        let degreesOfFreedom = groups.count - 1
        if zip(observed, expectedShares).contains(where: { $0.1 == 0 && $0.0 > 0 }) {
            return SampleRatioResult(chiSquare: .infinity, degreesOfFreedom: degreesOfFreedom, pValue: 0)
        }
        var chiSquare = 0.0
        for (count, share) in groups {
            let expected = share / shareTotal * total
            let difference = Double(count) - expected
            chiSquare += difference * difference / expected
        }
        return SampleRatioResult(
            chiSquare: chiSquare,
            degreesOfFreedom: degreesOfFreedom,
            pValue: Distributions.chiSquareSurvival(chiSquare, df: Double(degreesOfFreedom))
        )
    }
}
