import ExperimentCore

/// An experiment as a Swift type: its key in the store, the value the app uses when the experiment
/// cannot answer, and how a variant becomes a value.
///
/// Most keys adopt one of the refinements, which supply `value(of:)`: `ExperimentEnum` (the cases
/// are the variant names), `ExperimentFlag` (on/off) or `ExperimentPayload` (a `Decodable` payload).
public protocol ExperimentKey {
    associatedtype Value: Sendable
    /// The experiment key in the store, e.g. `purchase_button_color`.
    static var key: String { get }
    /// The in-app default: served whenever the experiment cannot answer (no snapshot, unknown key, bad value).
    static var defaultValue: Value { get }
    /// The value of `variant`; throws when this key has no value for it (reported, then the default is served).
    /// Runs under the client's lock: it must not call the client.
    static func value(of variant: VariantContent) throws(VariantMappingError) -> Value
}

/// What a variant offers a key: its name, whether it is the control, and its payload.
public struct VariantContent: Hashable, Sendable {
    public let name: String
    public let isControl: Bool
    /// The variant's JSON payload, if it has one.
    public let payload: JSONValue?

    public init(name: String, isControl: Bool, payload: JSONValue?) {
        self.name = name
        self.isControl = isControl
        self.payload = payload
    }
}

/// Why a key has no value for a variant.
public enum VariantMappingError: Error, Hashable, Sendable {
    /// The key knows no value for this variant name.
    case unknownVariant
    /// The variant's payload is missing or does not decode; the text says why.
    case undecodablePayload(String)
}
