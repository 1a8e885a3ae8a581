/// An experiment whose variants are the cases of a `String`-backed enum; the enum is its own key.
///
/// ```swift
/// enum EbookPromotion: String, ExperimentEnum {
///     case control, socialShare = "social_share", newsletter
///     static let key = "ebook_promotion", defaultValue = EbookPromotion.control
/// }
/// ```
public protocol ExperimentEnum: ExperimentKey, RawRepresentable, Sendable where RawValue == String, Value == Self {}

extension ExperimentEnum {
    /// The case whose raw value is the variant name.
    public static func value(of variant: VariantContent) throws(VariantMappingError) -> Self {
        guard let value = Self(rawValue: variant.name) else { throw .unknownVariant }
        return value
    }
}
