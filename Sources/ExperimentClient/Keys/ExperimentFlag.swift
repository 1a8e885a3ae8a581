/// An on/off experiment read as a `Bool`: the control and variants named like "off" are `false`,
/// variants named like "on" are `true`, any other variant is an incorrect value (the default is served).
///
/// ```swift
/// enum ProjectionBanner: ExperimentFlag {
///     static let key = "cash_projection_banner"
///     static let onVariants: Set<String> = ["banner"]
/// }
/// ```
public protocol ExperimentFlag: ExperimentKey where Value == Bool {
    /// Variant names that mean on (default `on`, `true`, `enabled`, `yes`).
    static var onVariants: Set<String> { get }
    /// Variant names that mean off besides the control (default `off`, `false`, `disabled`, `no`, `control`).
    static var offVariants: Set<String> { get }
}

extension ExperimentFlag {
    public static var onVariants: Set<String> { ["on", "true", "enabled", "yes"] }
    public static var offVariants: Set<String> { ["off", "false", "disabled", "no", "control"] }
    /// Off unless the experiment says on.
    public static var defaultValue: Bool { false }

    /// `true` for an on variant, `false` for the control or an off variant.
    public static func value(of variant: VariantContent) throws(VariantMappingError) -> Bool {
        if onVariants.contains(variant.name) { return true }
        if variant.isControl || offVariants.contains(variant.name) { return false }
        throw .unknownVariant
    }
}
