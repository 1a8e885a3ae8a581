#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif
import ExperimentCore
import Foundation

extension ExperimentClient {
    /// Replaces the snapshot with the one in `data` (a `--format client` snapshot or a store file).
    ///
    /// A valid snapshot is saved to the cache file (atomically) and swapped in at once; observers
    /// then hear which keys changed. A bad one changes nothing and is reported once.
    /// - Returns: the keys whose value changed, or why the snapshot was not used.
    @discardableResult
    public func replaceSnapshot(with data: Data) -> Result<Set<String>, SnapshotError> {
        replace(source: "data") { SnapshotLoader.load(data, source: "data").map { ($0, data) } }
    }

    /// Replaces the snapshot with the one in the file at `url`; see `replaceSnapshot(with:)`.
    @discardableResult
    public func replaceSnapshot(contentsOf url: URL) -> Result<Set<String>, SnapshotError> {
        replace(source: url.path) {
            Self.readData(url).flatMap { data in SnapshotLoader.load(data, source: url.path).map { ($0, data) } }
        }
    }

    /// Reads, persists and swaps one snapshot, holding the replacement lock throughout.
    private func replace(source: String, _ load: () -> Result<(ClientSnapshot, Data), SnapshotError>) -> Result<Set<String>, SnapshotError> {
        replacementLock.withLock {
            switch load() {
            case .failure(let error):
                deliver(lock.withLock { fresh([.snapshotNotUsed(error)]) })
                return .failure(error)
            case .success(let (snapshot, data)):
                return .success(install(snapshot, data: data, origin: nil))
            }
        }
    }

    /// The snapshot saved at `url`, read at launch.
    static func read(_ url: URL) -> Result<ClientSnapshot, SnapshotError> {
        readData(url).flatMap { SnapshotLoader.load($0, source: url.path) }
    }

    /// The file's bytes; opened without blocking and read only when it is a regular file, so a FIFO
    /// or a device named as the snapshot cannot hold the app at launch or grow without end.
    private static func readData(_ url: URL) -> Result<Data, SnapshotError> {
        let descriptor: Int32
        do {
            descriptor = try ClientFiles.openDescriptor(url.path, flags: ClientFiles.readFlags)
        } catch {
            return .failure(SnapshotError(source: url.path, reason: error.isMissing ? "no such file" : "cannot be read: \(error.reason)"))
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        let mode: mode_t
        do {
            mode = try ClientFiles.mode(of: descriptor)
        } catch {
            return .failure(SnapshotError(source: url.path, reason: "cannot be read: \(error.reason)"))
        }
        // Only a regular file is read: a FIFO would block the app until a writer came, and a
        // directory or device would fail with a message naming no cause.
        if let kind = SnapshotFileKind.irregular(mode: mode) {
            return .failure(SnapshotError(source: url.path, reason: "is \(kind), not a snapshot file; point the client at the file `abconsole export --format client` wrote"))
        }
        do {
            return .success(try handle.readToEnd() ?? Data())
        } catch {
            return .failure(SnapshotError(source: url.path, reason: "cannot be read: \(FileErrorReason.of(error, path: url.path))"))
        }
    }

    // MARK: - Observers

    /// Calls `handler` with the experiment keys whose value changed, after each change of snapshot,
    /// subject or overrides that changed any (on the thread that made the change).
    ///
    /// A key changed when the variant it is served, or that variant's payload, changed. Keep the
    /// returned observation; dropping or cancelling it stops the calls.
    public func observeChanges(_ handler: @escaping @Sendable (Set<String>) -> Void) -> ChangeObservation {
        let id = lock.withLock {
            let id = state.nextObserver
            state.nextObserver += 1
            state.observers[id] = handler
            return id
        }
        return ChangeObservation(client: self, id: id)
    }

    func removeObserver(_ id: Int) {
        lock.withLock { _ = state.observers.removeValue(forKey: id) }
    }

    /// Applies `change` to the state, clears the cached answers and tells observers which keys changed.
    @discardableResult
    func mutate(reports: [ClientReport] = [], _ change: (inout ClientState) -> Void) -> Set<String> {
        let (changed, observers, delivery) = lock.withLock {
            let before = state.served()
            change(&state)
            answers.removeAll(keepingCapacity: true)
            let after = state.served()
            let changed = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }
            return (changed, Array(state.observers.values), fresh(reports))
        }
        deliver(delivery)
        if !changed.isEmpty { observers.forEach { $0(changed) } }
        return changed
    }
}

/// A registration made by `observeChanges`; cancelled when cancelled or released.
/// `@unchecked Sendable`: `id` is a `let` and `client` a weak reference; removing the observer goes through the client's lock.
public final class ChangeObservation: @unchecked Sendable {
    private weak var client: ExperimentClient?
    private let id: Int

    init(client: ExperimentClient, id: Int) {
        self.client = client
        self.id = id
    }

    /// Stops the calls.
    public func cancel() { client?.removeObserver(id) }

    deinit { cancel() }
}
