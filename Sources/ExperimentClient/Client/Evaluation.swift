import ExperimentCore

/// The value a key got and where it came from: the experiment, an override, or the default.
public struct Evaluation<Value: Sendable>: Sendable {
    public let value: Value
    /// The variant whose value this is; nil when the default was served.
    public let variant: String?
    public let source: Source

    /// Where a value came from.
    public enum Source: Hashable, Sendable {
        /// The experiment decided, by this row of the decision table (SPEC §4).
        case experiment(DecisionReason)
        /// A server decided (remote mode), for this OFREP reason: `SPLIT`, or `DEFAULT` when it
        /// served the control for want of the subject's id.
        case server(reason: String)
        /// A QA override.
        case override
        /// The in-app default, for this reason.
        case fallback(Fallback)
    }

    /// Why the default was served.
    public enum Fallback: Hashable, Sendable {
        case noSnapshot, keyNotFound, unknownVariant, undecodablePayload
    }
}
