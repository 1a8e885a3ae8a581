import ExperimentCore
import ExperimentStore
import Foundation

/// The big store shared by scenarios 2 and 4: experiments and whitelist entries over a pool of ids.
struct BigStoreData {
    let snapshot: StoreSnapshot
    let pool: [String]
    let whitelistTotal: Int
    let perExperiment: Int

    init(experiments: Int, whitelist: Int) {
        pool = Fixtures.subjects(.short, count: max(whitelist, 1000), seed: 3)
        whitelistTotal = whitelist
        perExperiment = experiments == 0 ? 0 : whitelist / experiments
        snapshot = Fixtures.store(experiments: experiments, whitelistTotal: whitelist, subjects: pool)
    }

    /// A subject whitelisted in experiment number `experiment` (in key order).
    func whitelisted(experiment: Int, pick: Int) -> String {
        pool[(experiment * perExperiment + pick % max(perExperiment, 1)) % pool.count]
    }
}

/// Scenario 4: opening, saving and changing a store of 1,000 experiments and 1,000,000 whitelist entries.
enum BigStoreScenario {
    static func run(_ options: Options, store: BigStoreData, binary: String?, directory: String) {
        Report.section("4. Big store: \(store.snapshot.experiments.count) experiments, \(store.whitelistTotal) whitelist entries")
        let path = directory + "/big-store.json"
        let runs = max(1, min(options.runs, options.heavyRuns))
        // Save: encode + write a temp file, fsync, rename, fsync the directory (what a transaction does).
        var bytes = Data()
        var encodeTimes: [Double] = [], saveTimes: [Double] = []
        for _ in 0..<runs {
            let encode = Timing.of { bytes = StoreFile.encode(store.snapshot) }
            let write = Timing.of { durableWrite(bytes, to: path) }
            encodeTimes.append(encode.wall)
            saveTimes.append(encode.wall + write.wall)
        }
        Report.note("file: \(bytes.count / 1_000_000) MB (\(bytes.count / max(store.whitelistTotal, 1)) bytes per whitelist entry)")
        Report.figure("save: encode (StoreWriter) + durable write", median(saveTimes), "s", target: .atMost(1.5),
                      detail: "encode alone \(Report.number(median(encodeTimes))) s")
        // Open in this process: read + decode + validate + index.
        var openTimes: [Double] = []
        var opened: StoreSnapshot?
        for _ in 0..<runs {
            opened = nil
            openTimes.append(Timing.of { opened = try? StoreFile(path: path).load() }.wall)
        }
        Report.check(opened == store.snapshot, "the store reads back equal to what was written")
        var pythonTimes: [Double] = []
        var pythonPeak: [Double] = []
        if let python = which("python3") {
            for _ in 0..<runs {
                let output = directory + "/python-load.txt"
                let child = spawn(python, ["-c", "import json, sys, time\nt = time.perf_counter()\nwith open(sys.argv[1], 'rb') as f: json.load(f)\nprint(time.perf_counter() - t)", path], stdout: output)
                if child.status == 0, let text = try? String(contentsOfFile: output, encoding: .utf8), let seconds = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                    pythonTimes.append(seconds)
                    pythonPeak.append(Double(child.peakKiB) / 1024)
                }
            }
        }
        if pythonTimes.isEmpty {
            Report.figure("open: read + decode + validate + index", median(openTimes), "s", detail: "python3 not found: no ratio")
        } else {
            Report.figure("open, python3 json.load of the same file", median(pythonTimes), "s",
                          detail: "reference; python3 peak \(Report.number(median(pythonPeak))) MiB")
            Report.figure("open: read + decode + validate + index", median(openTimes), "s",
                          ratio: Ratio(value: median(openTimes) / median(pythonTimes), label: "time ÷ json.load", target: .atMost(1.0)))
        }
        guard let binary else {
            Report.note("abconsole binary not found: peak memory, whitelist add and import skipped")
            return
        }
        // The real binary: peak memory of a read (validate), one whitelist add, and an import.
        var validateRuns: [ChildRun] = [], addRuns: [ChildRun] = []
        for run in 0..<runs {
            validateRuns.append(spawn(binary, ["--store", path, "validate"]))
            addRuns.append(spawn(binary, ["--store", path, "--operator", "bench", "whitelist", "add", "exp_0000", "bench-added-\(run)", "control"]))
        }
        Report.check(validateRuns.allSatisfy { $0.status == 0 } && addRuns.allSatisfy { $0.status == 0 },
                     "abconsole validate and whitelist add succeed on the big store (exit \(validateRuns.map(\.status)) \(addRuns.map(\.status)))")
        Report.figure("abconsole validate (open) wall", median(validateRuns.map(\.wall)), "s",
                      detail: "CPU \(Report.number(median(validateRuns.map(\.cpu)))) s")
        Report.figure("peak memory, abconsole validate", median(validateRuns.map { Double($0.peakKiB) / 1024 }), "MiB", target: .atMost(400))
        Report.figure("whitelist add end to end (lock, open, change, save)", median(addRuns.map(\.wall)), "s", target: .atMost(1.5),
                      detail: "CPU \(Report.number(median(addRuns.map(\.cpu)))) s, peak \(Report.number(median(addRuns.map { Double($0.peakKiB) / 1024 }))) MiB")
        // Import 1,000,000 CSV rows into an experiment of a small store.
        let rows = options.importRows
        let csvPath = directory + "/import.csv"
        var csv = "subject,variant,note\n"
        csv.reserveCapacity(rows * 40)
        for (index, subject) in Fixtures.subjects(.uuid, count: rows, seed: 21).enumerated() {
            csv += subject + (index % 2 == 0 ? ",control," : ",treatment,") + (index % 10 == 0 ? "\"partner, batch 7\"" : "") + "\n"
        }
        _ = FileManager.default.createFile(atPath: csvPath, contents: Data(csv.utf8))
        let small = StoreSnapshot(revision: 1, experiments: ["import_target": Fixtures.experiment("import_target", status: .running,
                                                                                                   variants: [("control", 5000), ("treatment", 5000)])])
        let smallBytes = StoreFile.encode(small)
        var importRuns: [ChildRun] = []
        for _ in 0..<runs {
            let target = directory + "/import-store.json"
            _ = FileManager.default.createFile(atPath: target, contents: smallBytes)
            importRuns.append(spawn(binary, ["--store", target, "--operator", "bench", "whitelist", "import", "import_target", csvPath],
                                    stderr: directory + "/import-stderr.txt"))
        }
        Report.check(importRuns.allSatisfy { $0.status == 0 }, "whitelist import of \(rows) rows succeeds (exit \(importRuns.map(\.status)))")
        Report.figure("whitelist import of \(rows) CSV rows", median(importRuns.map(\.wall)), "s", target: .atMost(5),
                      detail: "CPU \(Report.number(median(importRuns.map(\.cpu)))) s, peak \(Report.number(median(importRuns.map { Double($0.peakKiB) / 1024 }))) MiB")
    }

    /// Writes `data` as a transaction does: temp file, fsync, rename, fsync the directory.
    static func durableWrite(_ data: Data, to path: String) {
        let temp = path + ".tmp"
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { return }
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { break }
                offset += written
            }
        }
        fsync(fd)
        close(fd)
        rename(temp, path)
        let directory = open((path as NSString).deletingLastPathComponent, O_RDONLY | O_DIRECTORY)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
    }
}
