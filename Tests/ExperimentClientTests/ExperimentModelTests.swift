#if canImport(Observation)
import ExperimentClient
import ExperimentCore
import Foundation
import Observation
import Testing

/// `ExperimentModel` on the main actor: a reader of `value(for:)` under Observation's tracking is
/// told when the key's answer changes, and then reads the new value.
@Suite(.serialized) struct ExperimentModelTests {
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @MainActor @Test func aTrackedReaderHearsAChangeAndReadsTheNewValue() async throws {
        let client = ExperimentClient(subject: Subject(userID: "u"))
        client.replaceSnapshot(with: RefreshTests.snapshot("a", revision: 1))
        let model = ExperimentModel(client: client)
        defer { model.stop() }
        let invalidated = Flag()
        let first = withObservationTracking {
            model.value(for: Split.self)
        } onChange: {
            invalidated.set()
        }
        #expect(first == .a)
        client.replaceSnapshot(with: RefreshTests.snapshot("b", revision: 2))
        // The model hears the change on the main actor: give it the turn.
        for _ in 0..<2000 where !invalidated.isSet { await Task.yield() }
        #expect(invalidated.isSet)
        #expect(model.value(for: Split.self) == .b)
        #expect(model.lastChangedKeys == ["split"])
        #expect(model.changeCount == 1)
    }
}

/// A flag set from Observation's `onChange`, which may run on any thread.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
    func set() { lock.lock(); value = true; lock.unlock() }
}
#endif
