#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ConsoleRuntime
import ConsoleUI
import ExperimentCore
import ExperimentEditing
import ExperimentStore
import Foundation
import Testing

/// A console save answers with the store it wrote and that file's fingerprint, both read under the
/// save's lock: another writer that lands as soon as the lock is released is a change the console
/// notices and reloads, never a fingerprint it records while still showing the store before it.
@Suite struct ConsoleSaveReadBackTests {
    static let bob = ChangeContext(operatorName: "bob", now: TempStore.t1)

    /// Waits until another process or thread holds `lockPath` (a console save has begun), at most `seconds`.
    static func waitUntilLocked(_ lockPath: String, seconds: Double = 10) {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let fd = open(lockPath, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { usleep(200); continue }
            defer { close(fd) }
            if flock(fd, LOCK_EX | LOCK_NB) != 0 { return }
            flock(fd, LOCK_UN)
            usleep(200)
        }
    }

    @Test func aWriterLandingRightAfterAConsoleSaveIsReloaded() throws {
        let store = try TempStore()
        // The console's p and s act on `alpha`, listed first. `big` holds 20,000 subjects: reading the
        // whole store takes long enough for Bob's change to `other`, which copies them, to land meanwhile.
        try store.createRunning("alpha")
        try store.createRunning("big")
        try store.createRunning("other")
        let rows = (0..<20_000).map { WhitelistRow(line: $0 + 1, subject: "user-\($0)", variant: "treat", note: "") }
        try store.file.apply(.whitelistImport(experiment: "big", rows: rows), context: Self.bob)
        let console = try ConsoleSession(store: store.file, operatorName: "alice", settleTime: 30, clock: { TempStore.t0 })
        for round in 0..<5 {
            // Bob waits for the lock Alice's save takes and saves as soon as she releases it.
            let bobDone = DispatchSemaphore(value: 0)
            let lockPath = store.path + ".lock", file = store.file
            Thread.detachNewThread {
                Self.waitUntilLocked(lockPath)
                _ = try? file.apply(.setDescription(experiment: "other", description: "round \(round)"), context: Self.bob)
                bobDone.signal()
            }
            console.send(.character(round.isMultiple(of: 2) ? "p" : "s"))
            console.send(.character("y"))
            #expect(console.state.message?.isError == false, "round \(round): \(String(describing: console.state.message))")
            #expect(bobDone.wait(timeout: .now() + 30) == .success)
            console.settle()
            let onDisk = try store.file.load()
            #expect(console.state.snapshot.revision == onDisk.revision, "round \(round): the console shows an older store than the file it watches")
            #expect(console.state.snapshot.experiments["other"]?.description == "round \(round)", "round \(round): Bob's change is shown")
        }
    }
}
