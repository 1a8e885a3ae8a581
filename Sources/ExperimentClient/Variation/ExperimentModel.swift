#if canImport(Observation)
import Observation

/// The client for SwiftUI: views that read values through it re-render when an answer changes.
///
/// ```swift
/// @State private var experiments = ExperimentModel(client: client)
/// var body: some View { Text("Buy").foregroundStyle(experiments.value(for: PurchaseButtonColor.self).color) }
/// ```
///
/// Lives on the main actor: it follows `client.changes` and bumps `changeCount` there, which every
/// `value(for:)` reads, so Observation re-renders the views that asked.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor @Observable
public final class ExperimentModel {
    /// The client whose values this model serves.
    public let client: ExperimentClient
    /// How many changes of answers the model has seen; read by every `value(for:)`.
    public private(set) var changeCount = 0
    /// The keys of the latest change.
    public private(set) var lastChangedKeys: Set<String> = []
    @ObservationIgnored private var listener: Task<Void, Never>?

    public init(client: ExperimentClient) {
        self.client = client
        let changes = client.changes
        listener = Task { @MainActor [weak self] in
            for await keys in changes {
                guard let self else { return }
                self.lastChangedKeys = keys
                self.changeCount += 1
            }
        }
    }

    /// The value of `key` for the client's subject, observed: a view that reads it re-renders on a change.
    public func value<Key: ExperimentKey>(for key: Key.Type) -> Key.Value {
        _ = changeCount
        return client.value(for: key)
    }

    /// Stops following the client (also when the model is released, at the next change).
    public func stop() {
        listener?.cancel()
        listener = nil
    }
}
#endif
