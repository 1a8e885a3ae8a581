import Foundation
import ExperimentCore

/// An experiment whose value is each variant's JSON payload, decoded as `Value`.
///
/// ```swift
/// struct ButtonColor: Decodable, Sendable { let color: String }
/// enum PurchaseButtonColor: ExperimentPayload {
///     static let key = "purchase_button_color", defaultValue = ButtonColor(color: "#0a84ff")
/// }
/// ```
public protocol ExperimentPayload: ExperimentKey where Value: Decodable {}

extension ExperimentPayload {
    /// The payload decoded as `Value`; a variant without a payload is an incorrect value.
    public static func value(of variant: VariantContent) throws(VariantMappingError) -> Value {
        guard let payload = variant.payload else { throw .undecodablePayload("the variant has no payload") }
        return try payload.decode(Value.self)
    }
}

extension JSONValue {
    /// This JSON decoded as `type` with Foundation's decoder.
    func decode<T: Decodable>(_ type: T.Type) throws(VariantMappingError) -> T {
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return try JSONDecoder().decode(type, from: try encoder.encode(self))
        } catch let error as DecodingError {
            throw .undecodablePayload(Self.describe(error))
        } catch {
            throw .undecodablePayload("\(error)")
        }
    }

    /// One line for a decoding error, naming the field.
    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch error {
        case .keyNotFound(let key, let context): return "missing field `\(path(context)).\(key.stringValue)`".replacingOccurrences(of: "`.", with: "`")
        case .typeMismatch(let type, let context): return "`\(path(context))` is not \(type)"
        case .valueNotFound(let type, let context): return "`\(path(context))` is null, expected \(type)"
        case .dataCorrupted(let context): return context.debugDescription
        @unknown default: return "\(error)"
        }
    }
}
