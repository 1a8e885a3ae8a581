import ExperimentCore
import ExperimentStore
import Foundation

/// Scenario 8: the store's figures in three shapes of about a million records, through
/// the real binary: open (`validate`) against Python's `json.load`, its peak memory, one
/// `whitelist add` to a small experiment, and one import of `importRows` rows.
enum ShapesScenario {
    static func run(_ options: Options, binary: String, directory: String) {
        let rows = options.scaled(250_000)
        let shapes: [() -> ShapeStore] = [
            { .fewHuge(rows: rows) },
            { .evenlySpread(experiments: 1000, perExperiment: options.scaled(1000)) },
            { .longHistories(experiments: options.scaled(10_000), whitelist: 10, history: 100) },
            { .oneHuge(entries: options.scaled(1_000_000)) },
        ]
        Report.section("8. Store shapes: open, memory, one change and one import at about a million records")
        let csvPath = directory + "/shape-import.csv"
        _ = FileManager.default.createFile(atPath: csvPath, contents: Fixtures.importCSV(rows: rows, seed: 41))
        for make in shapes {
            measure(make(), rows: rows, csvPath: csvPath, options: options, binary: binary, directory: directory)
        }
    }

    private static func measure(_ shape: ShapeStore, rows: Int, csvPath: String, options: Options, binary: String, directory: String) {
        print("\n   \(shape.title)")
        let path = directory + "/shape.json"
        _ = FileManager.default.createFile(atPath: path, contents: StoreFile.encode(shape.snapshot))
        var imports: [ChildRun] = []
        for (experiment, count, seed) in shape.imports {
            let csv = directory + "/shape-build.csv"
            _ = FileManager.default.createFile(atPath: csv, contents: Fixtures.importCSV(rows: count, seed: seed))
            imports.append(importRun(binary, store: path, experiment: experiment, csv: csv, directory: directory))
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        Report.note("file: \(size / 1_000_000) MB")
        let runs = max(1, min(options.runs, options.heavyRuns))
        var validates: [ChildRun] = [], adds: [ChildRun] = []
        for run in 0..<runs {
            validates.append(spawn(binary, ["--store", path, "validate"]))
            adds.append(spawn(binary, ["--store", path, "--operator", "bench", "whitelist", "add", shape.smallExperiment, "bench-added-\(run)", "control"]))
        }
        Report.check(validates.allSatisfy { $0.status == 0 } && adds.allSatisfy { $0.status == 0 },
                     "validate and whitelist add succeed (exit \(validates.map(\.status)) \(adds.map(\.status)))")
        let python = pythonLoad(path, runs: runs, directory: directory)
        let open = median(validates.map(\.wall)), openCPU = median(validates.map(\.cpu))
        if let python {
            Report.figure("open: abconsole validate, wall", open, "s",
                          ratio: Ratio(value: open / python.seconds, label: "time ÷ json.load", target: .atMost(1.0)),
                          detail: "CPU \(Report.number(openCPU)) s = \(Report.number(openCPU / python.cpu))× python3's CPU for json.load (process, \(Report.number(python.cpu)) s); json.load \(Report.number(python.seconds)) s, \(Report.number(python.peakMiB)) MiB")
        } else {
            Report.figure("open: abconsole validate, wall", open, "s", detail: "python3 not found: no ratio")
        }
        Report.figure("peak memory, abconsole validate", median(validates.map { Double($0.peakKiB) / 1024 }), "MiB", target: .atMost(400),
                      detail: "the file is \(Report.number(Double(size) / 1_048_576)) MiB")
        // The floor of a change: read the file and write it durably (temp file, fsync, rename), in this process.
        let floor = median((0..<runs).map { _ in
            Timing.of { BigStoreScenario.durableWrite((try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data(), to: directory + "/shape-floor.json") }.wall
        })
        try? FileManager.default.removeItem(atPath: directory + "/shape-floor.json")
        Report.figure("whitelist add to \(shape.smallExperiment), end to end", median(adds.map(\.wall)), "s", target: .atMost(1.5),
                      detail: "CPU \(Report.number(median(adds.map(\.cpu)))) s, peak \(Report.number(median(adds.map { Double($0.peakKiB) / 1024 }))) MiB; "
                          + "one read + durable write of the file: \(Report.number(floor)) s")
        if imports.isEmpty {
            // Into a copy of the store each time, so every run starts from the same file.
            for _ in 0..<runs {
                let copy = directory + "/shape-copy.json"
                try? FileManager.default.removeItem(atPath: copy)
                try? FileManager.default.copyItem(atPath: path, toPath: copy)
                imports.append(importRun(binary, store: copy, experiment: shape.smallExperiment, csv: csvPath, directory: directory))
            }
            try? FileManager.default.removeItem(atPath: directory + "/shape-copy.json")
        }
        Report.check(imports.allSatisfy { $0.status == 0 }, "whitelist imports succeed (exit \(imports.map(\.status)))")
        ShapeChanges.measure(shape.biggestExperiment, store: path, runs: runs, binary: binary, directory: directory)
        Report.figure("whitelist import of \(rows) rows", median(imports.map(\.wall)), "s", target: .atMost(5),
                      detail: "\(imports.count) runs \(imports.map { Report.number($0.wall) }.joined(separator: "/")) s, CPU \(Report.number(median(imports.map(\.cpu)))) s, "
                          + "peak \(Report.number(median(imports.map { Double($0.peakKiB) / 1024 }))) MiB")
        try? FileManager.default.removeItem(atPath: path)
    }

    private static func importRun(_ binary: String, store: String, experiment: String, csv: String, directory: String) -> ChildRun {
        spawn(binary, ["--store", store, "--operator", "bench", "whitelist", "import", experiment, csv], stderr: directory + "/import-stderr.txt")
    }

    /// The median time of Python's `json.load` of `path` inside Python (no interpreter start), and its peak memory.
    private static func pythonLoad(_ path: String, runs: Int, directory: String) -> (seconds: Double, cpu: Double, peakMiB: Double)? {
        guard let python = which("python3") else { return nil }
        var times: [Double] = [], cpus: [Double] = [], peaks: [Double] = []
        for _ in 0..<runs {
            let output = directory + "/python-load.txt"
            let child = spawn(python, ["-c", "import json, sys, time\nt = time.perf_counter()\nwith open(sys.argv[1], 'rb') as f: json.load(f)\nprint(time.perf_counter() - t)", path], stdout: output)
            if child.status == 0, let text = try? String(contentsOfFile: output, encoding: .utf8), let seconds = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                times.append(seconds)
                cpus.append(child.cpu)
                peaks.append(Double(child.peakKiB) / 1024)
            }
        }
        return times.isEmpty ? nil : (median(times), median(cpus), median(peaks))
    }
}
