/// The sample-ratio check of SPEC §8: observed analysed subjects against the shares the weights promise.
public struct SampleRatioVerdict: Equatable, Sendable {
    public enum Status: String, Equatable, Sendable {
        case ok, mismatch
        case notEnoughTraffic = "not_enough_traffic"
        case notApplicable = "not_applicable"
    }

    /// The p-value under which the split counts as a mismatch.
    public static let threshold = 0.001

    /// A variant's expected share (0…1) of the subjects.
    public struct Share: Equatable, Sendable {
        public var name: String
        public var share: Double
    }

    /// A variant's observed analysed subjects.
    public struct Count: Equatable, Sendable {
        public var name: String
        public var subjects: Int
    }

    public var status: Status
    public var pValue: Double?
    /// Expected share per variant with a weight, in the experiment's order.
    public var expected: [Share]
    /// Observed analysed subjects per variant with a weight.
    public var observed: [Count]

    /// The verdict for `analysis`: zero-weight variants dropped; not applicable when weights changed inside the window
    /// or fewer than two variants have a weight; not enough traffic under 8 subjects a variant.
    static func check(_ analysis: Analysis) -> SampleRatioVerdict {
        let weighted = analysis.variants.indices.filter { (analysis.window.weights[analysis.variants[$0]] ?? 0) > 0 }
        let totalBuckets = weighted.reduce(0) { $0 + (analysis.window.weights[analysis.variants[$1]] ?? 0) }
        let expected = weighted.map { Share(name: analysis.variants[$0], share: Double(analysis.window.weights[analysis.variants[$0]] ?? 0) / Double(max(totalBuckets, 1))) }
        let observed = weighted.map { Count(name: analysis.variants[$0], subjects: analysis.variantSubjects[$0]) }
        var verdict = SampleRatioVerdict(status: .ok, pValue: nil, expected: expected, observed: observed)
        if analysis.window.weightsChangedInside || weighted.count < 2 {
            verdict.status = .notApplicable
            return verdict
        }
        verdict.pValue = Statistics.sampleRatioPValue(observed: observed.map(\.subjects), expectedShares: expected.map(\.share))
        if observed.reduce(0.0, { $0 + Double($1.subjects) }) < Double(8 * weighted.count) {
            verdict.status = .notEnoughTraffic
        } else if let p = verdict.pValue, p < threshold {
            verdict.status = .mismatch
        }
        return verdict
    }
}
