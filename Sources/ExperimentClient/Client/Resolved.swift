import ExperimentCore

/// One key type's answer, cached until the snapshot, subject or overrides change.
@usableFromInline
final class Resolved<Value: Sendable>: @unchecked Sendable {
    /// The value alone, what `value(for:)` reads.
    @usableFromInline let value: Value
    let evaluation: Evaluation<Value>
    /// The experiment's decision when the value came from it (what an exposure needs).
    let decision: Decision?

    init(_ evaluation: Evaluation<Value>, decision: Decision? = nil) {
        value = evaluation.value
        self.evaluation = evaluation
        self.decision = decision
    }
}
