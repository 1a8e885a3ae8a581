import ExperimentClient
import ExperimentCore
import Foundation

/// Scenario 7, continued: refreshing from a host (Tests/delivery/snapshot_server.py on 127.0.0.1).
///
/// A refresh answered `304` (nothing decoded), beside one that brings new bytes (decoded, cached,
/// swapped); and the warm `value(for:)` on one thread while another refreshes without pause.
enum ClientRefreshScenario {
    static func run(_ options: Options) {
        Report.section("7b. Client library: refresh(from:) over HTTP; value(for:) while refreshing")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("abconsole-bench-refresh-\(getpid())")
        defer { try? FileManager.default.removeItem(at: directory) }
        guard let storeData = try? Data(contentsOf: root.appendingPathComponent("sample-data/experiments.json")),
              let store = try? StoreSnapshot.decode(storeData, path: "sample"), let first = try? ClientSnapshotDocument(store).encoded(),
              (try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)) != nil,
              (try? first.write(to: directory.appendingPathComponent("client.json"))) != nil else {
            Report.check(false, "sample snapshot written for the server")
            return
        }
        var next = store
        next.revision += 1
        let second = (try? ClientSnapshotDocument(next).encoded()) ?? first
        try? second.write(to: directory.appendingPathComponent("other.json"))
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = ["python3", root.appendingPathComponent("Tests/delivery/snapshot_server.py").path, directory.path]
        let output = Pipe()
        server.standardOutput = output
        server.standardError = FileHandle.nullDevice
        guard (try? server.run()) != nil else {
            Report.note("skipped: python3 Tests/delivery/snapshot_server.py did not start")
            return
        }
        defer { server.terminate() }
        var line = Data()
        while let byte = try? output.fileHandleForReading.read(upToCount: 1), let value = byte.first, value != UInt8(ascii: "\n") { line.append(value) }
        guard let port = Int(String(decoding: line, as: UTF8.self)), let url = URL(string: "http://127.0.0.1:\(port)/client.json"),
              let other = URL(string: "http://127.0.0.1:\(port)/other.json") else {
            Report.note("skipped: the snapshot server gave no port")
            return
        }
        let client = ExperimentClient(subject: Subject(userID: "user-42", deviceID: "device-7f3a"))
        let rounds = max(20, options.scaled(200))
        let (notModified, all304) = blocking { () async -> (Double, Bool) in
            _ = try? await client.refresh(from: url)
            var outcomes: [RefreshOutcome] = []
            let start = Clock.wall()
            for _ in 0..<rounds { if let outcome = try? await client.refresh(from: url) { outcomes.append(outcome) } }
            return ((Clock.wall() - start) / Double(rounds), outcomes.count == rounds && outcomes.allSatisfy { $0 == .notModified })
        }
        Report.check(all304, "every repeated refresh is answered 304")
        Report.figure("refresh answered 304 (nothing decoded)", notModified * 1000, "ms", detail: "\(rounds) refreshes, wall time, 127.0.0.1")
        let replaced = blocking { () async -> Double in
            let start = Clock.wall()
            for round in 0..<rounds { _ = try? await client.refresh(from: round % 2 == 0 ? other : url) }
            return (Clock.wall() - start) / Double(rounds)
        }
        Report.figure("refresh bringing a new snapshot (decode, cache, swap)", replaced * 1000, "ms", detail: "\(rounds) refreshes alternating two snapshots")
        _ = blocking { () async -> Int in (try? await client.refresh(from: url)).map { _ in 1 } ?? 0 }
        // A refresher that never pauses (all 304s) while this thread asks.
        let stop = StopFlag()
        let refresher = Task.detached {
            while !stop.isSet { _ = try? await client.refresh(from: url) }
        }
        let calls = options.scaled(8_000_000)
        var sink = 0
        var times: [Double] = []
        for _ in 0..<options.runs {
            times.append(Timing.of {
                for _ in 0..<calls / 4 {
                    sink &+= client.value(for: BenchKeys.AccountAddFunds.self) == .control ? 1 : 0
                    sink &+= client.value(for: BenchKeys.ColorScheme.self).accent.utf8.count
                    sink &+= client.value(for: BenchKeys.Banner.self) ? 1 : 0
                    sink &+= client.value(for: BenchKeys.ButtonColor.self).color.utf8.count
                }
            }.cpu)
        }
        stop.set()
        _ = blocking { () async -> Int in await refresher.value; return 0 }
        blackHole(sink)
        Report.figure("value(for:) warm while another thread refreshes", median(times) / Double(calls / 4 * 4) * 1e9, "ns",
                      target: .atMost(100), detail: "\(calls) calls, 4 typed keys; the refresher loops on 304s")
    }

    /// Runs `body` on a detached task and waits for its result (the benchmark's main thread is not async).
    private static func blocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            box.value = await body()
            done.signal()
        }
        done.wait()
        guard let value = box.value else { fatalError("a detached task ended without a value") }
        return value
    }

    /// `@unchecked Sendable`: `value` is set by the detached task before the semaphore its reader waits on is signalled.
    private final class ResultBox<T>: @unchecked Sendable { var value: T? }

    /// `@unchecked Sendable`: `stopped` is touched only under `lock`.
    private final class StopFlag: @unchecked Sendable {
        private let lock = NSLock()
        private var stopped = false
        var isSet: Bool { lock.lock(); defer { lock.unlock() }; return stopped }
        func set() { lock.lock(); stopped = true; lock.unlock() }
    }
}
