import Foundation

/// Tests/delivery/snapshot_server.py as a subprocess: serves a temporary directory on 127.0.0.1.
final class SnapshotServer {
    let root: URL
    let port: Int
    private let process: Process

    init() throws {
        root = try Fixture.temporaryDirectory()
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("delivery/snapshot_server.py")
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, root.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != UInt8(ascii: "\n") {
            line.append(first)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            process.terminate()
            throw ServerError(message: "the snapshot server did not start")
        }
        self.port = port
    }

    /// The URL of `path` under the root, with a failure prefix such as `_500` when given.
    func url(_ path: String, failing mode: String? = nil) -> URL {
        // Built from parts known to be valid.
        URL(string: "http://127.0.0.1:\(port)/\(mode.map { "\($0)/" } ?? "")\(path)") ?? root
    }

    /// Writes `data` to `path` under the root (atomically, as a deploy would).
    func publish(_ data: Data, at path: String) throws {
        let file = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file, options: .atomic)
    }

    /// Ends the server (SIGTERM; not waited for: `waitUntilExit` spins on a task's thread).
    func stop() {
        process.terminate()
        try? FileManager.default.removeItem(at: root)
    }

    struct ServerError: Error { let message: String }
}
