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
            throw .undecodablePayload(DecodingProblem.text(error))
        } catch {
            throw .undecodablePayload("\(error)")
        }
    }

}
