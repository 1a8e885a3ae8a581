/// The core's model types (`Subject`, `JSONValue`, `DecisionReason`) are part of this API: one import suffices.
@_exported import ExperimentCore
