import ExperimentCore

/// One key type's answer, cached until the snapshot, subject or overrides change.
/// `@unchecked Sendable`: every field is a `let`, set once in `init`.
@usableFromInline
final class Resolved<Value: Sendable>: @unchecked Sendable {
    /// The value alone, what `value(for:)` reads.
    @usableFromInline let value: Value
    let evaluation: Evaluation<Value>
    /// What an exposure of this answer names, when it is one (a `bucketed` decision, or a server's `SPLIT`).
    let exposure: ExposureTarget?

    init(_ evaluation: Evaluation<Value>, exposure: ExposureTarget? = nil) {
        value = evaluation.value
        self.evaluation = evaluation
        self.exposure = exposure
    }
}

/// The experiment, variant and subject an exposure names.
struct ExposureTarget: Hashable, Sendable {
    let experiment: String
    let variant: String
    let subject: String
}
