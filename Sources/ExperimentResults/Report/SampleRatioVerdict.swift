/// The sample-ratio check of SPEC §8: observed analysed subjects against the shares the weights promise.
package struct SampleRatioVerdict: Equatable, Sendable {
    package enum Status: String, Equatable, Sendable {
        case ok, mismatch
        case notEnoughTraffic = "not_enough_traffic"
        case notApplicable = "not_applicable"
    }

    /// The p-value under which the split counts as a mismatch.
    package static let threshold = 0.001

    /// A variant's expected share (0…1) of the subjects.
    package struct Share: Equatable, Sendable {
        package var name: String
        package var share: Double
    }

    /// A variant's observed analysed subjects.
    package struct Count: Equatable, Sendable {
        package var name: String
        package var subjects: Int
    }

    package var status: Status
    package var pValue: Double?
    /// Expected share per variant with a weight, in the experiment's order.
    package var expected: [Share]
    /// Observed analysed subjects per variant with a weight.
    package var observed: [Count]

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
