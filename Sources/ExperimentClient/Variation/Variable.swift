/// A value any experiment can vary, one element at a time, in one chained expression:
///
/// ```swift
/// extension ButtonStyle: Variable {}
/// let style = ButtonStyle.standard
///     .withVariation(PurchaseButtonColor.self, client) { style, color in style.tint = color.color }
///     .withVariation(ProjectionBanner.self, client) { style, on in style.showsBadge = on }
/// ```
///
/// Each step reads the key's value (its default when the experiment cannot answer) and lets the
/// closure adjust a copy; steps compose in order, like SwiftUI's view modifiers. Conform any type
/// with an empty extension; for a type you cannot extend, use `ExperimentClient.vary(_:by:_:)`.
public protocol Variable {}

extension Variable {
    /// A copy of this value adjusted by `transform` with the value of `key`.
    public func withVariation<Key: ExperimentKey>(_ key: Key.Type, _ client: ExperimentClient,
                                                  _ transform: (inout Self, Key.Value) throws -> Void) rethrows -> Self {
        try client.vary(self, by: key, transform)
    }
}

extension ExperimentClient {
    /// A copy of `value` adjusted by `transform` with the value of `key`: `withVariation` for any type.
    public func vary<Base, Key: ExperimentKey>(_ value: Base, by key: Key.Type,
                                               _ transform: (inout Base, Key.Value) throws -> Void) rethrows -> Base {
        var copy = value
        try transform(&copy, self.value(for: key))
        return copy
    }
}
