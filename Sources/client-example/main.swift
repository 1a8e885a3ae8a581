import ExperimentClient
import Foundation

// client-example --snapshot FILE [--user ID] [--device ID] [--exposures FILE] [--show KEY]...
// client-example --snapshot-url URL [--refresh-every SECONDS] [--for SECONDS] [--timeout SECONDS] [--max-bytes N] [--user ID] [--device ID]
// client-example --server URL [--token T] [--user ID] [--device ID] [--post-exposures] [--show KEY]...
// Prints `KEY VARIANT` for every typed key (`default` when the app fell back to its default) and
// marks each --show KEY as seen, which logs its exposure to --exposures. With --snapshot-url it
// fetches through `refresh(from:)`, again every --refresh-every seconds for --for seconds, prints
// the lines again after each change and says when a fetch was answered `304`. With --server it asks
// that `abconsole serve` for this user's and device's answers (remote mode), and --post-exposures
// sends the exposures of every --show KEY (every key without --show) to the server.

let usage = """
    usage: client-example --snapshot FILE [--user ID] [--device ID] [--exposures FILE] [--show KEY]...
           client-example --snapshot-url URL [--refresh-every SECONDS] [--for SECONDS] [--timeout SECONDS] [--max-bytes N] [--user ID] [--device ID] [--exposures FILE] [--show KEY]...
           client-example --server URL [--token T] [--timeout SECONDS] [--user ID] [--device ID] [--exposures FILE | --post-exposures] [--show KEY]...
    """

func fail(_ message: String, code: Int32) -> Never {
    FileHandle.standardError.write(Data("client-example: \(message)\n".utf8))
    exit(code)
}

let options: ExampleOptions
do {
    options = try ExampleOptions(Array(CommandLine.arguments.dropFirst()), known: Set(allKeys.map { $0.key }))
} catch {
    fail("\(error.message)\n\(usage)", code: 64)
}
if options.help {
    print(usage)
    exit(0)
}

var sink: JSONLinesExposureSink?
if let path = options.exposures {
    do {
        sink = try JSONLinesExposureSink(path: path)
    } catch {
        fail(error.description, code: 73)
    }
}
let reporter = StandardErrorReporter()
if let server = options.server {
    let done = DispatchSemaphore(value: 0)
    let code = ExitCode()
    // Built here: the detached task must not reach for the main actor's `var sink` while main waits.
    let run = ServerRun(server: server, options: options, sink: sink, reporter: reporter)
    Task.detached {
        code.value = await run.run()
        done.signal()
    }
    done.wait()
    exit(code.value)
}
let client = ExperimentClient(subject: Subject(userID: options.user, deviceID: options.device), exposureSink: sink, delegate: reporter)
if let url = options.snapshotURL {
    // Top-level code runs on the main actor: the fetching runs detached while the main thread waits.
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        var follower = SnapshotFollower(client: client, url: url, every: options.refreshEvery, for: options.runFor, keys: allKeys, show: options.show)
        (follower.timeout, follower.maxBytes) = (options.timeout, options.maxBytes)
        await follower.run()
        done.signal()
    }
    done.wait()
    exit(0)
}
client.replaceSnapshot(contentsOf: URL(fileURLWithPath: options.snapshot))

/// The variant whose value the app got, or `default`.
func variant<Key: ExperimentKey>(of key: Key.Type) -> String {
    client.evaluation(for: key).variant ?? "default"
}

for key in allKeys {
    print("\(key.key) \(variant(of: key))")
}
for key in allKeys where options.show.contains(key.key) {
    client.markSeen(key)
}
// A lost exposure is an I/O failure of this run (74), not a success.
if reporter.lostExposures > 0 { exit(74) }
