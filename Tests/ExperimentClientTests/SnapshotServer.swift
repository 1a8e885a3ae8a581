import Foundation

/// A local HTTP server as a subprocess, serving a temporary directory on 127.0.0.1: by default
/// Tests/delivery/snapshot_server.py; `ofrep_stub.py`, Python's own `http.server` or `abconsole serve` when asked.
final class SnapshotServer {
    let root: URL
    let port: Int
    private let process: Process

    /// Starts `script` (under Tests/delivery) with the root as its argument.
    convenience init(script: String = "snapshot_server.py") throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("delivery/\(script)").path
        try self.init { ["python3", path, $0.path] }
    }

    /// Starts `python3 -m http.server` on a free port: a plain static server (`Last-Modified`, no `ETag`).
    static func plainPython() throws -> SnapshotServer {
        try SnapshotServer { ["python3", "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", $0.path] }
    }

    /// Starts the real `abconsole serve` on a free port over a copy of `store` (the root's
    /// `experiments.json`), writing posted rows under the root's `logs`.
    static func abconsoleServe(store: URL) throws -> SnapshotServer {
        try SnapshotServer { root in
            let copy = root.appendingPathComponent("experiments.json")
            let logs = root.appendingPathComponent("logs")
            try? FileManager.default.copyItem(at: store, to: copy)
            try? FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
            return [Binaries.directory.appendingPathComponent("abconsole").path, "--store", copy.path, "serve",
                    "--listen", "127.0.0.1:0", "--exposures", logs.path]
        }
    }

    /// Starts the command `arguments(root)`, whose first line of output ends with the port it listens on.
    init(_ arguments: (URL) -> [String]) throws {
        root = try Fixture.temporaryDirectory()
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments(root)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != UInt8(ascii: "\n") {
            line.append(first)
        }
        // The last number on the line: `43567`, `Serving HTTP on 127.0.0.1 port 43567 (http://127.0.0.1:43567/) ...`.
        let digits = String(decoding: line, as: UTF8.self).split { !$0.isNumber }.last
        guard let port = digits.flatMap({ Int($0) }) else {
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
