import ExperimentClient
import Foundation
import Testing

/// `client-example` given snapshot paths that are not regular files, and an exposure log that cannot take a write.
@Suite(.serialized) struct HostileSnapshotProcessTests {
    /// A FIFO (which would block a read until a writer came), a directory and a device: refused at
    /// once in one sentence naming the kind of file; the app serves its defaults and exits 0.
    @Test func snapshotThatIsNotARegularFileIsRefusedAtOnce() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("snapshot.json").path
        #expect(mkfifo(fifo, 0o644) == 0)
        for (path, kind) in [(fifo, "a FIFO (named pipe)"), (directory.path, "a directory"), ("/dev/null", "a device")] {
            let result = try Binaries.run("client-example", ["--snapshot", path, "--user", "u"])
            #expect(result.code == 0)
            #expect(result.stdout.split(separator: "\n").allSatisfy { $0.hasSuffix(" default") })
            #expect(result.stderr.contains("snapshot \(path) not used: is \(kind), not a snapshot file"), "\(result.stderr)")
            #expect(!result.stderr.contains("NSCocoaErrorDomain") && !result.stderr.contains("permission"))
        }
    }

    /// An exposure log on a full device: the client tells its delegate, and the example exits 74.
    @Test func exposureThatCannotBeWrittenIsReported() throws {
        let arguments = ["--snapshot", ExampleProcessTests.store, "--user", "user-42", "--device", "device-7f3a",
                         "--show", "account_add_funds", "--exposures", "/dev/full"]
        let result = try Binaries.run("client-example", arguments)
        #expect(result.code == 74)
        #expect(result.stderr.contains("an exposure could not be recorded to /dev/full: No space left on device; it is lost"), "\(result.stderr)")
    }

    /// A cache path that is a directory, or under a missing folder: the report says why in the system's words.
    @Test func unwritableCacheSaysWhyInWords() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (cache, reason) in [(directory, "it is a directory"),
                                (directory.appendingPathComponent("missing/snapshot.json"), "No such file or directory")] {
            let recorder = Recorder()
            let client = ExperimentClient(subject: Subject(userID: "u"), cacheURL: cache, delegate: recorder)
            client.replaceSnapshot(contentsOf: Fixture.sampleStoreURL)
            let text = recorder.reports.map(\.description).joined(separator: "\n")
            #expect(text.contains("cannot save the snapshot to \(cache.path) for the next launch: \(reason)"), "\(text)")
            #expect(!text.contains("NSCocoaErrorDomain"))
        }
    }
}
