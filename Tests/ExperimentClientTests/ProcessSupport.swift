#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing

/// Runs the real executables built beside the test bundle.
enum Binaries {
    static let directory: URL = {
        signal(SIGPIPE, SIG_IGN)
        let candidates = Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }.map { $0.bundleURL.deletingLastPathComponent() }
            + [Bundle.main.executableURL?.deletingLastPathComponent(), Bundle.main.bundleURL].compactMap { $0 }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("client-example").path) } ?? candidates[0]
    }()

    /// Runs `name arguments`; returns the exit code, stdout and stderr.
    static func run(_ name: String, _ arguments: [String], stdin: Data? = nil) throws -> (code: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = directory.appendingPathComponent(name)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("ABCONSOLE_") }
        environment["ABCONSOLE_OPERATOR"] = "tester"
        process.environment = environment
        let output = Pipe(), errors = Pipe(), input = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }
}
