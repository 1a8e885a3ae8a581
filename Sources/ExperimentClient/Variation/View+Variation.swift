#if canImport(SwiftUI)
import SwiftUI

/// SwiftUI convenience: vary a view by an experiment in a modifier chain.
///
/// Untested here: CI builds on Linux, where SwiftUI does not exist. It only reads
/// `ExperimentClient.value(for:)`, which the tests cover.
extension View {
    /// This view transformed by `transform` with the value of `key`.
    public func withVariation<Key: ExperimentKey, Content: View>(
        _ key: Key.Type, _ client: ExperimentClient, @ViewBuilder _ transform: (Self, Key.Value) -> Content
    ) -> Content {
        transform(self, client.value(for: key))
    }
}
#endif
