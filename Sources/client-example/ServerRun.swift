import ExperimentClient
import Foundation

/// `--server`: the answers of `abconsole serve` for this user and device (remote mode), one
/// `KEY VARIANT` line per typed key, then the exposures of the keys shown, to `--exposures` or,
/// with `--post-exposures`, to the server.
struct ServerRun: Sendable {
    let server: URL
    let options: ExampleOptions
    let sink: JSONLinesExposureSink?
    let reporter: StandardErrorReporter

    /// Runs it; the exit code (0, or 74 when an exposure could not be sent or written).
    func run() async -> Int32 {
        // Unsent rows would be kept here across launches; this one-shot run sends them before it ends.
        let queueDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("client-example-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: queueDirectory) }
        var poster: HTTPExposureSink?
        if options.postExposures {
            try? FileManager.default.createDirectory(at: queueDirectory, withIntermediateDirectories: true)
            poster = HTTPExposureSink(server: server, token: options.token, queueFile: queueDirectory.appendingPathComponent("exposures.jsonl"),
                                      sendAfter: nil, timeout: options.timeout)
        }
        let client = ExperimentClient(subject: Subject(userID: options.user, deviceID: options.device),
                                      exposureSink: poster ?? sink, delegate: reporter)
        let context = EvaluationContext(client.subject)
        _ = try? await client.refresh(fromServer: server, context: context, token: options.token, timeout: options.timeout, maxBytes: options.maxBytes)
        for key in allKeys { say("\(key.key) \(variant(of: key, in: client))") }
        for key in allKeys where options.show.isEmpty ? options.postExposures : options.show.contains(key.key) {
            client.markSeen(key)
        }
        if let poster {
            do {
                try await poster.flush()
            } catch {
                FileHandle.standardError.write(Data("client-example: \(error)\n".utf8))
                return 74
            }
            if poster.dropped > 0 { return 74 }
        }
        return reporter.lostExposures > 0 ? 74 : 0
    }

    private func variant<Key: ExperimentKey>(of key: Key.Type, in client: ExperimentClient) -> String {
        client.evaluation(for: key).variant ?? "default"
    }

    /// One line on stdout at once.
    private func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
}

/// The exit code a detached task hands to the main thread (written before the semaphore is signalled).
/// `@unchecked Sendable`: `value` is written by the task before the semaphore the main thread waits on is signalled.
final class ExitCode: @unchecked Sendable {
    var value: Int32 = 0
}
