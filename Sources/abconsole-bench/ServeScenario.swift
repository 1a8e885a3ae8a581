import ExperimentCore
import ExperimentStore
import Foundation

/// Scenario 11: `serve` answering bulk OFREP evaluations for random users (keep-alive, `wrk` with
/// scripts/bench/ofrep-bulk.lua) beside nginx serving the static `export --format client` file of
/// the same store, measured alternately in one run. Targets: requests/s ≥ 0.5× nginx's, p99 ≤ 10 ms
/// (or ≤ 2× nginx's own p99 on a loaded machine); resident memory after the load is printed.
enum ServeScenario {
    /// wrk's threads and open connections, and seconds per measurement.
    static let threads = 2, connections = 32, seconds = 5

    static func run(_ options: Options, binary: String, directory: String) {
        let experiments = options.scaled(50), entries = options.scaled(500)
        Report.section("11. Serve: bulk OFREP evaluations vs nginx serving the static client export (\(experiments) experiments, \(entries) whitelist entries)")
        guard let wrk = which("wrk"), let nginx = which("nginx") ?? ["/usr/sbin/nginx"].first(where: { access($0, X_OK) == 0 }) else {
            Report.note("skipped: needs wrk and nginx (apt-get install wrk nginx-light)")
            return
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let script = root.appendingPathComponent("scripts/bench/ofrep-bulk.lua").path
        let storePath = directory + "/serve-store.json"
        let pool = Fixtures.subjects(.short, count: max(entries, 100), seed: 11)
        _ = FileManager.default.createFile(atPath: storePath, contents: StoreFile.encode(Fixtures.store(experiments: experiments, whitelistTotal: entries, subjects: pool, running: true)))
        let exportPath = directory + "/client.json"
        let export = spawn(binary, ["--store", storePath, "export", "--format", "client", "--out", exportPath])
        Report.check(export.status == 0, "export --format client of the benchmark store")
        Report.note("store file \(Report.number(fileSize(storePath) / 1024)) KiB, static client export \(Report.number(fileSize(exportPath) / 1024)) KiB")

        guard let serve = Server.start(binary, ["--store", storePath, "serve", "--listen", "127.0.0.1:0"]) else {
            Report.check(false, "serve starts and says where it listens")
            return
        }
        defer { serve.stop() }
        guard let nginxPort = freePort(), let proxy = startNginx(nginx, root: directory, port: nginxPort) else {
            Report.check(false, "nginx starts on loopback")
            return
        }
        defer { proxy.stop() }
        let bulkURL = "http://127.0.0.1:\(serve.port)/ofrep/v1/evaluate/flags"
        let staticURL = "http://127.0.0.1:\(nginxPort)/client.json"
        var served: [WrkResult] = [], statics: [WrkResult] = []
        // Alternate, so both see the same machine load.
        for _ in 0..<max(1, min(options.runs, options.heavyRuns)) {
            if let result = measure(wrk, ["-s", script, bulkURL], in: directory) { served.append(result) }
            if let result = measure(wrk, [staticURL], in: directory) { statics.append(result) }
        }
        guard !served.isEmpty, !statics.isEmpty else {
            Report.check(false, "wrk measured both servers")
            return
        }
        let problems = served.map(\.problems).filter { !$0.isEmpty }.joined(separator: "; ")
        Report.check(problems.isEmpty, "serve answered every request 2xx without socket errors" + (problems.isEmpty ? "" : " (\(problems))"))
        Report.check(statics.allSatisfy(\.clean), "nginx answered every request 2xx without socket errors")
        let serveRate = median(served.map(\.rate)), nginxRate = median(statics.map(\.rate))
        let serveP99 = median(served.map(\.p99)), nginxP99 = median(statics.map(\.p99))
        let load = "wrk -t\(threads) -c\(connections) -d\(seconds)s keep-alive, median of \(served.count)"
        Report.figure("nginx: static client export", nginxRate, "req/s", detail: "p99 \(Report.number(nginxP99 * 1000)) ms, \(load)")
        Report.figure("serve: bulk evaluation, random users", serveRate, "req/s",
                      ratio: Ratio(value: serveRate / nginxRate, label: "÷ nginx", target: .atLeast(0.5)),
                      detail: "\(load), \(Report.number(served.last?.bytesPerRequest ?? 0)) B an answer")
        let p99Met = serveP99 <= 0.010 || serveP99 <= 2 * nginxP99
        if !p99Met { Report.misses += 1 }
        Report.figure("serve: p99 latency", serveP99 * 1000, "ms",
                      ratio: Ratio(value: serveP99 / nginxP99, label: "÷ nginx p99"),
                      detail: "target ≤ 10 ms or ≤ 2× nginx's p99: \(p99Met ? "met" : "MISSED")")
        let resident = serve.residentBytes()
        Report.figure("serve: resident memory after the load", resident / 1_048_576, "MiB",
                      ratio: Ratio(value: resident / fileSize(storePath), label: "÷ store file"),
                      detail: "informative: on a store this small the process's own floor is the figure")
        Report.check(serve.stop() == 0, "serve exits 0 on SIGTERM after the load")
    }

    /// One wrk run's figures.
    struct WrkResult {
        var rate: Double
        /// Seconds.
        var p99: Double
        var bytesPerRequest: Double
        var problems: String

        var clean: Bool { problems.isEmpty }

        /// Reads wrk's `--latency` report.
        static func parse(_ text: String) -> WrkResult? {
            var rate: Double?, p99: Double?, requests = 0.0, bytes = 0.0
            var problems: [String] = []
            for line in text.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                if line.hasPrefix("Requests/sec:"), let value = fields.last.flatMap({ Double($0) }) { rate = value }
                if line.hasPrefix("99%"), fields.count == 2 { p99 = seconds(String(fields[1])) }
                if line.hasPrefix("Non-2xx") || line.hasPrefix("Socket errors") { problems.append(line) }
                // "123456 requests in 5.00s, 98.76MB read"
                if fields.count >= 5, fields[1] == "requests", fields[2] == "in" {
                    requests = Double(fields[0]) ?? 0
                    bytes = megabytes(String(fields[4]))
                }
            }
            guard let rate, let p99 else { return nil }
            return WrkResult(rate: rate, p99: p99, bytesPerRequest: requests > 0 ? bytes / requests : 0, problems: problems.joined(separator: ", "))
        }

        /// `812.00us`, `1.23ms`, `2.00s` in seconds.
        static func seconds(_ text: String) -> Double? {
            for (suffix, scale) in [("us", 1e-6), ("ms", 1e-3), ("s", 1.0)] where text.hasSuffix(suffix) {
                return Double(text.dropLast(suffix.count)).map { $0 * scale }
            }
            return nil
        }

        /// `98.76MB`, `512.00KB`, `1.02GB` in bytes (wrk's units are powers of 1024).
        static func megabytes(_ text: String) -> Double {
            for (suffix, scale) in [("KB", 1024.0), ("MB", 1_048_576.0), ("GB", 1_073_741_824.0), ("B", 1.0)] where text.hasSuffix(suffix) {
                return (Double(text.dropLast(suffix.count)) ?? 0) * scale
            }
            return 0
        }
    }

    /// One keep-alive wrk run against `arguments`' URL.
    static func measure(_ wrk: String, _ arguments: [String], in directory: String) -> WrkResult? {
        let output = capture(wrk, ["-t\(threads)", "-c\(connections)", "-d\(seconds)s", "--latency"] + arguments, in: directory)
        return output.flatMap(WrkResult.parse)
    }

    /// A running server process, stopped with `SIGTERM`.
    final class Server {
        let process: Process
        let port: Int

        init(process: Process, port: Int) {
            self.process = process
            self.port = port
        }

        /// Starts `binary` and reads its first line, `listening on HOST:PORT`.
        static func start(_ binary: String, _ arguments: [String]) -> Server? {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return nil }
            var line = Data()
            while let byte = try? output.fileHandleForReading.read(upToCount: 1), let value = byte.first, value != UInt8(ascii: "\n") { line.append(value) }
            let text = String(decoding: line, as: UTF8.self)
            guard text.hasPrefix("listening on "), let port = text.split(separator: ":").last.flatMap({ Int($0) }) else {
                process.terminate()
                return nil
            }
            return Server(process: process, port: port)
        }

        /// VmRSS of the process, in bytes.
        func residentBytes() -> Double { statusKiB("VmRSS") * 1024 }

        /// A `/proc/PID/status` figure in KiB (`VmRSS`, `VmHWM`), 0 when unreadable.
        func statusKiB(_ field: String) -> Double {
            let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") }
            return line?.split(separator: " ").dropFirst().first.flatMap { Double($0) } ?? 0
        }

        /// Sends `SIGTERM` (once) and waits: the exit status.
        @discardableResult
        func stop() -> Int32 {
            if process.isRunning {
                kill(process.processIdentifier, SIGTERM)
                process.waitUntilExit()
            }
            return process.terminationStatus
        }
    }

    /// nginx serving `root` on loopback `port`: two workers (one a core), keep-alive, no access log.
    static func startNginx(_ nginx: String, root: String, port: Int) -> Server? {
        let config = """
        daemon off;
        worker_processes auto;
        pid \(root)/nginx.pid;
        error_log \(root)/nginx-error.log;
        events { worker_connections 4096; }
        http {
          access_log off;
          sendfile on;
          tcp_nopush on;
          keepalive_requests 1000000;
          open_file_cache max=64;
          default_type application/json;
          client_body_temp_path \(root)/nginx-body; proxy_temp_path \(root)/nginx-proxy;
          fastcgi_temp_path \(root)/nginx-fastcgi; uwsgi_temp_path \(root)/nginx-uwsgi; scgi_temp_path \(root)/nginx-scgi;
          server { listen 127.0.0.1:\(port); root \(root); }
        }
        """
        let configPath = root + "/nginx.conf"
        guard FileManager.default.createFile(atPath: configPath, contents: Data(config.utf8)) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: nginx)
        process.arguments = ["-p", root, "-c", configPath, "-e", root + "/nginx-error.log"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        // Ready once it accepts a connection.
        for _ in 0..<100 {
            if connects(port) { return Server(process: process, port: port) }
            usleep(50_000)
        }
        process.terminate()
        return nil
    }

    /// A loopback port free at this moment.
    static func freePort() -> Int? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        return bound ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }

    static func connects(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    static func fileSize(_ path: String) -> Double {
        Double((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
    }
}
