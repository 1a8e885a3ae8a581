#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ExperimentClient
import Foundation
import Testing

/// The exposure log named by the app is a FIFO no process reads: the real `client-example` is
/// refused at once (exit 73, one sentence) instead of blocking in the sink's `init` forever.
@Suite struct ExposureSinkFIFOTests {
    @Test func aFifoWithoutAReaderIsRefusedAtOnce() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("abconsole-fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("exposures.jsonl").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let process = Process()
        process.executableURL = Binaries.directory.appendingPathComponent("client-example")
        process.arguments = ["--snapshot", ExampleProcessTests.store, "--user", "u", "--exposures", fifo]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        let hung = process.isRunning
        if hung { process.terminate() }
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(!hung, "client-example still blocked on the FIFO after 10 s")
        #expect(process.terminationStatus == 73 && stderr.contains("it is a FIFO that no process reads"), "\(process.terminationStatus): \(stderr)")
    }

    @Test func aFifoSnapshotIsNotWaitedFor() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("abconsole-fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("snapshot.json").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let client = ExperimentClient(subject: Subject(userID: "u"))
        let result = client.replaceSnapshot(contentsOf: URL(fileURLWithPath: fifo))
        #expect(result == .failure(SnapshotError(source: fifo, reason: "is a FIFO (named pipe), not a snapshot file; point the client at the file `abconsole export --format client` wrote")))
    }

    @Test func aFifoWithAReaderGetsTheLines() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("abconsole-fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("exposures.jsonl").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        // Once open, writes block as usual (the descriptor is made blocking again): the line arrives whole.
        let sink = try JSONLinesExposureSink(path: fifo)
        sink.record(Exposure(timestamp: Date(timeIntervalSince1970: 0), experiment: "x", variant: "y", subject: "z"))
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(reader, &buffer, buffer.count)
        #expect(count > 0 && sink.failures == 0)
        #expect(String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self).hasSuffix("\"variant\":\"y\"}\n"))
    }
}
