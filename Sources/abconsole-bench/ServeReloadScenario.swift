import ExperimentStore
import Foundation

/// Scenario 12: `serve` over a store of 1,000,000 whitelist entries, reloading it while `wrk` sends
/// bulk OFREP evaluations: `abconsole whitelist add` rewrites the file (atomically, as every change
/// does) during the load. Targets: no failed request, resident memory (peak, VmHWM) ≤ 2× the file.
enum ServeReloadScenario {
    /// Seconds of load, and when in it the store is changed.
    static let seconds = 12, changeAfter = 3.0

    static func run(_ options: Options, binary: String, directory: String) {
        let experiments = options.scaled(50), entries = options.scaled(1_000_000)
        Report.section("12. Serve reload: \(experiments) experiments, \(entries) whitelist entries, the store changed under load")
        guard let wrk = which("wrk"), let curl = which("curl") else {
            Report.note("skipped: needs wrk and curl")
            return
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let script = root.appendingPathComponent("scripts/bench/ofrep-bulk.lua").path
        let storePath = directory + "/serve-reload-store.json"
        let pool = Fixtures.subjects(.short, count: entries, seed: 12)
        _ = FileManager.default.createFile(atPath: storePath, contents: StoreFile.encode(Fixtures.store(experiments: experiments, whitelistTotal: entries, subjects: pool, running: true)))
        let fileBytes = ServeScenario.fileSize(storePath)
        Report.note("store file \(Report.number(fileBytes / 1_048_576)) MiB")

        let started = Date()
        guard let serve = ServeScenario.Server.start(binary, ["--store", storePath, "serve", "--listen", "127.0.0.1:0"]) else {
            Report.check(false, "serve starts and says where it listens")
            return
        }
        defer { serve.stop() }
        let health = "http://127.0.0.1:\(serve.port)/healthz"
        guard let first = waitForRevision(curl, health, above: -1, directory: directory, timeout: 120) else {
            Report.check(false, "serve loads the big store")
            return
        }
        Report.figure("serve: first load of the store", Date().timeIntervalSince(started), "s", detail: "start to /healthz answering revision \(first)")

        // The load, on its own thread; the change lands in the middle of it.
        let bulkURL = "http://127.0.0.1:\(serve.port)/ofrep/v1/evaluate/flags"
        let loaded = LockedBox<ServeScenario.WrkResult?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let output = capture(wrk, ["-t\(ServeScenario.threads)", "-c\(ServeScenario.connections)", "-d\(seconds)s", "--latency", "-s", script, bulkURL],
                                 in: directory)
            loaded.set(output.flatMap(ServeScenario.WrkResult.parse))
            done.signal()
        }
        Thread.sleep(forTimeInterval: changeAfter)
        let change = spawn(binary, ["--store", storePath, "whitelist", "add", "exp_0000", "bench-reload-subject", "control", "--note", "added under load"])
        Report.check(change.status == 0, "whitelist add rewrites the store while serve is under load")
        let replaced = Date()
        let second = waitForRevision(curl, health, above: first, directory: directory, timeout: 60)
        let reload = Date().timeIntervalSince(replaced)
        Report.check(second != nil, "serve reloads the changed store under load (revision \(first) → \(second.map(String.init) ?? "none"))")
        Report.figure("serve: reload under load", reload, "s",
                      detail: "from the file replaced (whitelist add took \(Report.number(change.wall)) s) to /healthz answering the new revision")
        done.wait()
        guard let result = loaded.value else {
            Report.check(false, "wrk measured serve during the reload")
            return
        }
        Report.check(result.clean, "no failed request during the reload: every answer 2xx, no socket error" + (result.clean ? "" : " (\(result.problems))"))
        Report.figure("serve: bulk evaluation during the reload", result.rate, "req/s",
                      detail: "p99 \(Report.number(result.p99 * 1000)) ms, wrk -t\(ServeScenario.threads) -c\(ServeScenario.connections) -d\(seconds)s keep-alive")
        let peak = serve.statusKiB("VmHWM") * 1024, resident = serve.statusKiB("VmRSS") * 1024
        Report.figure("serve: peak resident memory (VmHWM)", peak / 1_048_576, "MiB",
                      ratio: Ratio(value: peak / fileBytes, label: "÷ store file", target: .atMost(2)),
                      detail: "after the load and reload: \(Report.number(resident / 1_048_576)) MiB resident")
        Report.check(serve.stop() == 0, "serve exits 0 on SIGTERM after the load")
    }

    /// Polls `/healthz` until it answers a revision above `above`: that revision, or nil after `timeout` seconds.
    static func waitForRevision(_ curl: String, _ url: String, above: Int, directory: String, timeout: Double) -> Int? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let text = capture(curl, ["-s", "--max-time", "2", url], in: directory),
               let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
               let revision = object["revision"] as? Int, revision > above {
                return revision
            }
            usleep(20_000)
        }
        return nil
    }
}

/// A value one thread sets and another reads.
/// `@unchecked Sendable`: `stored` is private and touched only under `lock`, the only door.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value { lock.withLock { stored } }
    func set(_ value: Value) { lock.withLock { stored = value } }
}
