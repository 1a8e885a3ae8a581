import ConsoleRuntime
import ConsoleUI
import ExperimentCore
import ExperimentResults
import ResultsReading
import ExperimentStore
import ExperimentTestSupport
import Foundation

/// Scenario 7: `abconsole results` end to end on 5,000,000 exposures and 1,000,000 conversions (CSV),
/// beside DuckDB running the README's SQL on the same files; and the console's first numbers after `e`.
enum ResultsScenario {
    /// The package folder (for the README SQL and the sample events).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let duckdbScript = """
    import sys, time
    start = time.perf_counter()
    import duckdb
    sql, exposures, conversions = open(sys.argv[1]).read(), sys.argv[2], sys.argv[3]
    con = duckdb.connect()
    con.execute("SET TimeZone='UTC'")
    con.execute("SET enable_progress_bar=false")
    con.execute("CREATE VIEW exposures AS SELECT * FROM read_csv('%s', header=true, columns={'timestamp':'TIMESTAMPTZ','experiment':'VARCHAR','variant':'VARCHAR','subject':'VARCHAR'})" % exposures)
    con.execute("CREATE VIEW conversions AS SELECT * FROM read_csv('%s', header=true, columns={'timestamp':'TIMESTAMPTZ','subject':'VARCHAR','metric':'VARCHAR','value':'DOUBLE'})" % conversions)
    con.execute("CREATE TABLE variants AS SELECT * FROM (VALUES ('control'), ('treatment')) v(name)")
    con.execute("CREATE TABLE whitelist (subject VARCHAR)")
    query = sql.format(experiment='bench_results', window_from=sys.argv[4], window_to=sys.argv[5], conversion_window_hours='NULL')
    rows = con.execute(query).fetchall()
    print(time.perf_counter() - start)
    for row in rows: print(",".join(str(x) for x in row))
    """

    static func run(_ options: Options, binary: String?, directory: String) {
        let exposures = options.scaled(5_000_000), conversions = options.scaled(1_000_000)
        Report.section("7. Results: \(exposures) exposures (~\(options.scaled(1_000_000)) subjects) + \(conversions) conversions, CSV")
        consoleFirstNumbers(options, directory: directory)
        guard let binary else {
            Report.note("skipped the end-to-end figures: no abconsole binary (swift build -c release)")
            return
        }
        let exposuresPath = directory + "/exposures.csv", conversionsPath = directory + "/conversions.csv"
        let generation = Timing.of {
            writeExposures(exposuresPath, rows: exposures, subjects: options.scaled(1_000_000))
            writeConversions(conversionsPath, rows: conversions, subjects: options.scaled(1_200_000))
        }
        let bytes = ((try? FileManager.default.attributesOfItem(atPath: exposuresPath)[.size] as? Int) ?? 0)
            + ((try? FileManager.default.attributesOfItem(atPath: conversionsPath)[.size] as? Int) ?? 0)
        Report.note("generated \(Report.number(Double(bytes) / 1e6)) MB of CSV in \(Report.number(generation.wall)) s")
        let store = directory + "/results-store.json"
        for (time, arguments) in [("2025-12-31T23:00:00Z", ["create", "bench_results", "--type", "user", "--variants", "control=50,treatment=50"]),
                                  ("2025-12-31T23:30:00Z", ["start", "bench_results"])] {
            _ = spawn(binary, ["--store", store] + arguments, environment: environment(now: time))
        }
        let ours = directory + "/results-ours.json"
        guard let measured = measure(binary, store: store, exposures: exposuresPath, conversions: conversionsPath, output: ours,
                                     runs: options.heavyRuns, directory: directory) else { return }
        let wall = measured.wall
        Report.figure("abconsole results, end to end (release)", wall, "s",
                      detail: "CPU \(Report.number(measured.cpu)) s, \(ProcessInfo.processInfo.activeProcessorCount) threads")
        Report.figure("abconsole results, peak memory", Double(measured.peakKiB) / 1024, "MiB", target: .atMost(1024))
        let single = directory + "/results-single.json"
        if let one = measure(binary, store: store, exposures: exposuresPath, conversions: conversionsPath, output: single,
                             runs: 1, threads: 1, directory: directory) {
            Report.figure("abconsole results, one thread (ABCONSOLE_THREADS=1)", one.wall, "s",
                          ratio: Ratio(value: wall / one.wall, label: "all cores ÷ one thread"),
                          detail: "CPU \(Report.number(one.cpu)) s, peak \(Report.number(Double(one.peakKiB) / 1024)) MiB")
            Report.check(FileManager.default.contents(atPath: single) == FileManager.default.contents(atPath: ours),
                         "the one-thread JSON is byte-identical to the all-cores JSON")
        }
        duckdb(options, ours: ours, oursWall: wall, exposures: exposuresPath, conversions: conversionsPath, directory: directory)
        consoleOnLogs(store: store, exposures: exposuresPath, conversions: conversionsPath, cliWall: wall, runs: options.heavyRuns)
        scaling(options, binary: binary, store: store, baseWall: wall, directory: directory)
    }

    /// Runs `results --json` `runs` times (with `threads` when given); nil (and a failed check) when a run fails.
    private static func measure(_ binary: String, store: String, exposures: String, conversions: String, output: String, runs: Int,
                                threads: Int? = nil, directory: String) -> (wall: Double, cpu: Double, peakKiB: Int)? {
        var environment = environment(now: "2026-02-15T00:00:00Z")
        if let threads { environment["ABCONSOLE_THREADS"] = String(threads) }
        var children: [ChildRun] = []
        for _ in 0..<runs {
            children.append(spawn(binary, ["--store", store, "results", "bench_results", "--exposures", exposures, "--conversions", conversions, "--json"],
                                  stdout: output, stderr: directory + "/results-stderr.txt", environment: environment))
        }
        guard children.allSatisfy({ $0.status == 0 }) else {
            Report.check(false, "abconsole results exits 0 (\(children.map(\.status)))")
            return nil
        }
        return (median(children.map(\.wall)), median(children.map(\.cpu)), children.map(\.peakKiB).max() ?? 0)
    }

    /// 4× the rows (20,000,000 exposures + 4,000,000 conversions at `--size 1`): time against 4× the base run, memory (streamed).
    /// Skipped below `--size 1` (a quick look).
    private static func scaling(_ options: Options, binary: String, store: String, baseWall: Double, directory: String) {
        guard options.size >= 1 else {
            Report.note("scaling to 4× the rows: skipped below --size 1")
            return
        }
        let exposures = directory + "/exposures-4x.csv", conversions = directory + "/conversions-4x.csv"
        defer {
            if !options.keep {
                try? FileManager.default.removeItem(atPath: exposures)
                try? FileManager.default.removeItem(atPath: conversions)
            }
        }
        let generation = Timing.of {
            writeExposures(exposures, rows: options.scaled(20_000_000), subjects: options.scaled(4_000_000))
            writeConversions(conversions, rows: options.scaled(4_000_000), subjects: options.scaled(4_800_000))
        }
        Report.note("generated \(options.scaled(20_000_000)) exposures + \(options.scaled(4_000_000)) conversions in \(Report.number(generation.wall)) s")
        guard let measured = measure(binary, store: store, exposures: exposures, conversions: conversions, output: directory + "/results-4x.json",
                                     runs: max(1, options.heavyRuns), directory: directory) else { return }
        Report.figure("abconsole results, 4× the rows", measured.wall, "s",
                      ratio: Ratio(value: measured.wall / baseWall, label: "÷ the 5M run", target: .atMost(4.4)),
                      detail: "CPU \(Report.number(measured.cpu)) s")
        Report.figure("abconsole results, 4× the rows, peak memory", Double(measured.peakKiB) / 1024, "MiB", target: .atMost(1024))
    }

    /// The console's `e` on the same logs: first numbers against the CLI's time (+10 %), with progress on the way.
    private static func consoleOnLogs(store: String, exposures: String, conversions: String, cliWall: Double, runs: Int) {
        let now = Date(timeIntervalSince1970: 1_771_113_600)  // 2026-02-15T00:00:00Z, the CLI runs' clock
        var times: [Double] = []
        var loaded = false, progressed = false
        for _ in 0..<max(1, runs) {
            guard let session = try? ConsoleSession(store: StoreFile(path: store), operatorName: "bench", clock: { now },
                                                    eventPaths: EventPaths(exposures: exposures, conversions: conversions),
                                                    readParallelism: readParallelism) else { break }
            let start = Clock.wall()
            session.send(.character("e"))
            while session.state.results?.report == nil, session.state.results.map({ $0.isLoading }) ?? true, Clock.wall() - start < 120 {
                session.tick()
                if case .loading(let rows, _) = session.state.results?.phase, rows > 0 { progressed = true }
                usleep(200)
            }
            times.append(Clock.wall() - start)
            loaded = session.state.results?.report != nil
        }
        Report.figure("console: `e` to first numbers (the same logs)", median(times), "s",
                      ratio: Ratio(value: median(times) / cliWall, label: "÷ the CLI", target: .atMost(1.1)),
                      detail: "in process; the terminal loop polls every 100 ms")
        Report.check(loaded, "the console's results screen shows numbers on the big logs")
        Report.check(progressed, "the console shows rows read while it reads")
    }

    private static func environment(now: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("ABCONSOLE_") }
        environment["ABCONSOLE_NOW"] = now
        environment["ABCONSOLE_OPERATOR"] = "bench"
        return environment
    }

    private static func duckdb(_ options: Options, ours: String, oursWall: Double, exposures: String, conversions: String, directory: String) {
        guard let python = which("python3"), spawn(python, ["-c", "import duckdb"]).status == 0 else {
            Report.note("DuckDB: skipped (`python3 -c \"import duckdb\"` fails; pip install duckdb)")
            return
        }
        let sql = root.appendingPathComponent("Tests/results/summary.sql").path
        let arguments = ["-c", duckdbScript, sql, exposures, conversions, "2025-12-31T23:30:00Z", "2026-02-15T00:00:00Z"]
        var runs: [ChildRun] = []
        let output = directory + "/results-duckdb.txt"
        for _ in 0..<options.heavyRuns { runs.append(spawn(python, arguments, stdout: output, stderr: directory + "/duckdb-stderr.txt")) }
        guard runs.allSatisfy({ $0.status == 0 }), let text = try? String(contentsOfFile: output, encoding: .utf8) else {
            Report.check(false, "the DuckDB script runs")
            return
        }
        let wall = median(runs.map(\.wall))
        Report.figure("DuckDB (python3 -c, the README SQL), end to end", wall, "s",
                      detail: "CPU \(Report.number(median(runs.map(\.cpu)))) s, peak \(Report.number(Double(runs.map(\.peakKiB).max() ?? 0) / 1024)) MiB")
        Report.figure("abconsole results ÷ DuckDB (time)", oursWall / wall, "×", target: .atMost(0.5))
        var lines = text.split(separator: "\n").map(String.init)
        let duckRows = Set(lines.dropFirst().compactMap { line -> String? in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 6 else { return nil }
            return "\(fields[0]),\(fields[2]),\(fields[3]),\(Double(fields[4]) ?? -1),\(Double(fields[5]) ?? -1)"
        })
        lines.removeAll()
        guard let data = FileManager.default.contents(atPath: ours),
              let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let metrics = json["metrics"] as? [[String: Any]] else {
            Report.check(false, "abconsole's JSON reads")
            return
        }
        var ourRows = Set<String>()
        for metric in metrics {
            for variant in (metric["variants"] as? [[String: Any]]) ?? [] {
                let subjects = (variant["subjects"] as? NSNumber)?.intValue ?? -1
                let sum = (variant["sum"] as? NSNumber)?.doubleValue ?? -1, squares = (variant["sum_squares"] as? NSNumber)?.doubleValue ?? -1
                ourRows.insert("\(metric["metric"] ?? ""),\(variant["name"] ?? ""),\(subjects),\(sum),\(squares)")
            }
        }
        let same = ourRows.count == duckRows.count && zip(ourRows.sorted(), duckRows.sorted()).allSatisfy { close($0, $1) }
        Report.check(same, "DuckDB's totals equal abconsole's (subjects exact, sums to 1e-9 relative)")
    }

    /// Two `metric,variant,subjects,sum,squares` rows agree: text exactly, numbers to 1e-9 relative (sums in another order).
    private static func close(_ a: String, _ b: String) -> Bool {
        let x = a.split(separator: ","), y = b.split(separator: ",")
        guard x.count == 5, y.count == 5, x[0...2] == y[0...2] else { return false }
        return (3...4).allSatisfy { index in
            guard let p = Double(x[index]), let q = Double(y[index]) else { return false }
            return abs(p - q) <= 1e-9 * max(1, abs(p), abs(q))
        }
    }

    /// The console's first numbers after `e` over the sample events: the `.readResults` job, its outcome applied by `tick`
    /// (in process; the terminal loop adds at most one 100 ms poll).
    private static func consoleFirstNumbers(_ options: Options, directory: String) {
        let sample = root.appendingPathComponent("sample-data")
        let copy = directory + "/console-results"
        try? FileManager.default.removeItem(atPath: copy)
        do {
            try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: sample.appendingPathComponent("experiments.json").path, toPath: copy + "/experiments.json")
            try FileManager.default.copyItem(atPath: sample.appendingPathComponent("events").path, toPath: copy + "/events")
        } catch {
            Report.check(false, "copy the sample store and events: \(error)")
            return
        }
        var times: [Double] = []
        var loaded = false
        for _ in 0..<options.runs {
            guard let session = try? ConsoleSession(store: StoreFile(path: copy + "/experiments.json"), operatorName: "bench",
                                                    readParallelism: readParallelism) else { break }
            let start = Clock.wall()
            session.send(.character("e"))
            while session.state.results?.report == nil, Clock.wall() - start < 10 {
                session.tick()
                usleep(200)
            }
            times.append(Clock.wall() - start)
            loaded = session.state.results?.report != nil
            _ = session.render(width: 100, height: 30)
        }
        Report.figure("console: `e` to first numbers (sample events)", median(times) * 1000, "ms", target: .atMost(200),
                      detail: "in process; the terminal loop polls every 100 ms")
        Report.check(loaded, "the results screen shows numbers")
    }

    /// `rows` exposures of `subjects` subjects (9 in 10 rows for `bench_results`; 1 in 400 subjects in both variants).
    static func writeExposures(_ path: String, rows: Int, subjects: Int) {
        var random = SplitMix64(seed: 71)
        var writer = CSVWriter(path: path, header: "timestamp,experiment,variant,subject")
        for _ in 0..<rows {
            let subject = Int(random.next() % UInt64(subjects))
            let crosses = subject % 400 == 0 && random.next() % 2 == 0
            let variant = (subject % 2 == 0) != crosses ? "control" : "treatment"
            let experiment = random.next() % 10 == 0 ? "other_exp" : "bench_results"
            writer.time(1_767_225_600 + Int(random.next() % (30 * 86_400)), millis: Int(random.next() % 1000))
            writer.append(",\(experiment),\(variant),user-\(subject)\n")
        }
        writer.close()
    }

    /// `rows` conversions: 7 in 10 `purchase` (no value), the rest `revenue` with a value.
    static func writeConversions(_ path: String, rows: Int, subjects: Int) {
        var random = SplitMix64(seed: 72)
        var writer = CSVWriter(path: path, header: "timestamp,subject,metric,value")
        for _ in 0..<rows {
            let subject = Int(random.next() % UInt64(subjects))
            writer.time(1_767_225_600 + Int(random.next() % (40 * 86_400)), millis: Int(random.next() % 1000))
            if random.next() % 10 < 7 {
                writer.append(",user-\(subject),purchase,\n")
            } else {
                writer.append(",user-\(subject),revenue,\(1 + random.next() % 200).\(random.next() % 4 * 25)\n")
            }
        }
        writer.close()
    }

    /// How many threads the console's sessions read with: as `abconsole` chooses (one per core, or `ABCONSOLE_THREADS`).
    private static var readParallelism: ReadParallelism {
        ReadParallelism(environment: ProcessInfo.processInfo.environment, cores: ProcessInfo.processInfo.activeProcessorCount)
    }
}

/// Appends CSV text to a file in 4 MiB blocks.
private struct CSVWriter {
    let handle: FileHandle?
    var bytes: [UInt8] = []

    init(path: String, header: String) {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        handle = FileHandle(forWritingAtPath: path)
        bytes.reserveCapacity(1 << 22)
        append(header + "\n")
    }

    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
        if bytes.count >= 1 << 22 { flush() }
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ` for `seconds` since 1970.
    mutating func time(_ seconds: Int, millis: Int) {
        var text = EventTime.format(Int64(seconds) * 1_000_000_000)
        text.removeLast()
        append(text + "." + String(1000 + millis).dropFirst() + "Z")
    }

    mutating func flush() {
        try? handle?.write(contentsOf: bytes)
        bytes.removeAll(keepingCapacity: true)
    }

    mutating func close() {
        flush()
        try? handle?.close()
    }
}
