#if canImport(SwiftUI)
import SwiftUI

/// SwiftUI convenience: vary a view by an experiment in a modifier chain, re-rendered when the
/// key's answer changes (a new snapshot, subject or override).
///
/// Untested here: CI builds on Linux, where SwiftUI does not exist. It reads
/// `ExperimentClient.value(for:)` and follows `ExperimentClient.changes`, which the tests cover.
extension View {
    /// This view transformed by `transform` with the value of `key`, again after every change of it.
    public func withVariation<Key: ExperimentKey, Content: View>(
        _ key: Key.Type, _ client: ExperimentClient, @ViewBuilder _ transform: @escaping (Self, Key.Value) -> Content
    ) -> some View {
        VariedView(base: self, key: key, client: client, transform: transform)
    }
}

/// Holds the key's value in state and refreshes it from `client.changes` (iOS 15's `.task`).
private struct VariedView<Base: View, Key: ExperimentKey, Content: View>: View {
    let base: Base
    let key: Key.Type
    let client: ExperimentClient
    let transform: (Base, Key.Value) -> Content
    @State private var changes = 0

    var body: some View {
        let _ = changes
        transform(base, client.value(for: key))
            .task {
                for await keys in client.changes where keys.contains(Key.key) { changes += 1 }
            }
    }
}
#endif
