#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing

/// What one run of the `abconsole` binary produced.
struct RunResult: Sendable {
    let code: Int32
    let stdoutData: Data
    let stderr: String

    var stdout: String { String(decoding: stdoutData, as: UTF8.self) }
    /// Standard output split into lines, without the final empty one.
    var lines: [String] {
        var lines = stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// Standard output decoded as one JSON document.
    func json() throws -> JSONTree { try JSONDecoder().decode(JSONTree.self, from: stdoutData) }
}

/// Runs the real `abconsole` executable built next to the test bundle.
enum CLI {
    /// The executable: beside the `.xctest` bundle (or the test runner) in the build directory.
    static let executable: URL = {
        // A child that exits before reading its stdin must not kill the test process.
        signal(SIGPIPE, SIG_IGN)
        // On Linux the test runner is itself `….xctest` and is the main bundle, whose URL is its directory.
        let candidates = Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }.map { $0.bundleURL.deletingLastPathComponent() }
            + [Bundle.main.executableURL?.deletingLastPathComponent(), Bundle.main.bundleURL].compactMap { $0 }
        let executables = candidates.map { $0.appendingPathComponent("abconsole") }
        return executables.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? executables[0]
    }()

    /// Whether `stderr` is exactly `export`'s one note that whitelisted ids ship in the file (SPEC §13).
    static func isWhitelistNote(_ stderr: String) -> Bool {
        stderr.hasPrefix("abconsole: note: the whitelisted ids of ") && stderr.hasSuffix("\n")
            && stderr.filter { $0 == "\n" }.count == 1 && stderr.contains(" ship in this file")
    }

    /// The fixed time every test runs at (`ABCONSOLE_NOW`).
    static let now = "2026-03-01T10:00:00Z"

    /// The inherited environment without any `ABCONSOLE_*` setting, plus the fixed operator and clock.
    static let baseEnvironment: [String: String] = {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("ABCONSOLE_") }
        environment["ABCONSOLE_OPERATOR"] = "tester"
        environment["ABCONSOLE_NOW"] = now
        return environment
    }()

    /// Runs `abconsole arguments` and waits for it; a Swift runtime error in stderr fails the test.
    static func run(_ arguments: [String], stdin: Data? = nil, env: [String: String] = [:], directory: URL? = nil,
                    sourceLocation: SourceLocation = #_sourceLocation) -> RunResult {
        spawn(executable, arguments, stdin: stdin, env: env, directory: directory, sourceLocation: sourceLocation)
            .wait(sourceLocation: sourceLocation)
    }

    /// Starts `program arguments` (the environment as in `run`) without waiting for it.
    static func spawn(_ program: URL, _ arguments: [String], stdin: Data? = nil, env: [String: String] = [:],
                      directory: URL? = nil, sourceLocation: SourceLocation = #_sourceLocation) -> Running {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.environment = baseEnvironment.merging(env) { $1 }
        if let directory { process.currentDirectoryURL = directory }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let input = stdin.map { _ in Pipe() }
        process.standardInput = input ?? FileHandle.nullDevice
        var started = false
        for attempt in 1...5 where !started {
            do {
                try process.run()
                started = true
            } catch {
                if attempt == 5 { Issue.record("cannot start \(program.path): \(error)", sourceLocation: sourceLocation) }
                usleep(20_000)
            }
        }
        return Running(process: process, output: output, errors: errors, input: input, stdin: stdin, started: started)
    }

    /// A started child process; `wait()` drains both pipes (concurrently) before waiting for the exit.
    struct Running: @unchecked Sendable {
        let process: Process
        let output: Pipe
        let errors: Pipe
        let input: Pipe?
        let stdin: Data?
        let started: Bool

        func wait(sourceLocation: SourceLocation = #_sourceLocation) -> RunResult {
            guard started else { return RunResult(code: -1, stdoutData: Data(), stderr: "not started") }
            let collected = Collected()
            let group = DispatchGroup()
            let errors = self.errors, input = self.input, stdin = self.stdin
            DispatchQueue.global().async(group: group) {
                collected.errors = errors.fileHandleForReading.readDataToEndOfFile()
            }
            if let input, let stdin {
                DispatchQueue.global().async(group: group) {
                    try? input.fileHandleForWriting.write(contentsOf: stdin)
                    try? input.fileHandleForWriting.close()
                }
            }
            let out = output.fileHandleForReading.readDataToEndOfFile()
            group.wait()
            process.waitUntilExit()
            let stderr = String(decoding: collected.errors, as: UTF8.self)
            #expect(process.terminationReason == .exit, "abconsole died of signal \(process.terminationStatus)", sourceLocation: sourceLocation)
            #expect(!stderr.contains("Fatal error"), "Swift runtime error: \(stderr)", sourceLocation: sourceLocation)
            return RunResult(code: process.terminationStatus, stdoutData: out, stderr: stderr)
        }
    }

    private final class Collected: @unchecked Sendable {
        var errors = Data()
    }
}

/// A temporary directory with a store path in it; every command runs with `--store` pointing there.
final class Sandbox {
    let directory: URL
    /// The value passed as `--store`.
    var store: String

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("abconsole-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = directory.appendingPathComponent("experiments.json").path
    }

    /// A sandbox whose store holds `bytes`.
    convenience init(storeBytes bytes: Data) throws {
        try self.init()
        try bytes.write(to: URL(fileURLWithPath: store))
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// A path inside the sandbox.
    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Runs `abconsole --store STORE arguments` in the sandbox directory.
    @discardableResult
    func run(_ arguments: [String], stdin: Data? = nil, env: [String: String] = [:],
             sourceLocation: SourceLocation = #_sourceLocation) -> RunResult {
        CLI.run(["--store", store] + arguments, stdin: stdin, env: env, directory: directory, sourceLocation: sourceLocation)
    }

    /// Runs a command that must succeed, and returns its output.
    @discardableResult
    func ok(_ arguments: [String], stdin: Data? = nil, env: [String: String] = [:],
            sourceLocation: SourceLocation = #_sourceLocation) -> RunResult {
        let result = run(arguments, stdin: stdin, env: env, sourceLocation: sourceLocation)
        #expect(result.code == 0, "`\(arguments.joined(separator: " "))` failed: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.isEmpty || (arguments.contains("export") && CLI.isWhitelistNote(result.stderr)), "stderr: \(result.stderr)",
                sourceLocation: sourceLocation)
        return result
    }

    /// Runs a command that must be refused with `code` and a message containing `phrase`,
    /// printing nothing on stdout and leaving the store's bytes (and the directory's files) as they were.
    @discardableResult
    func refused(_ arguments: [String], code: Int32, _ phrase: String, stdin: Data? = nil, env: [String: String] = [:],
                 sourceLocation: SourceLocation = #_sourceLocation) -> RunResult {
        let before = storeBytes()
        let filesBefore = files()
        let result = run(arguments, stdin: stdin, env: env, sourceLocation: sourceLocation)
        #expect(result.code == code, "`\(arguments.joined(separator: " "))`: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.hasPrefix("abconsole: "), sourceLocation: sourceLocation)
        #expect(result.stderr.contains(phrase), "stderr lacks “\(phrase)”: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, "stdout: \(result.stdout)", sourceLocation: sourceLocation)
        #expect(storeBytes() == before, "the store changed", sourceLocation: sourceLocation)
        let lockFile = (store as NSString).lastPathComponent + ".lock"
        #expect(files().subtracting([lockFile]) == filesBefore.subtracting([lockFile]), "files appeared or vanished", sourceLocation: sourceLocation)
        return result
    }

    /// The store's bytes, or nil when it does not exist.
    func storeBytes() -> Data? { FileManager.default.contents(atPath: store) }

    /// The names of the files in the sandbox directory.
    func files() -> Set<String> { Set((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []) }

    /// Writes `text` to a file in the sandbox and returns its path.
    func write(_ name: String, _ text: String) throws -> String {
        let path = path(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}
