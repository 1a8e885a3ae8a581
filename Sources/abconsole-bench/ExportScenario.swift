import ExperimentCore
import ExperimentStore
import Foundation

/// Scenario 9: `export --format client` and `--format growthbook` of 10,000 experiments with
/// 1,000,000 whitelist entries, through the real binary (targets ≤ 1.5 s, peak ≤ 2.5× the store file);
/// the tests hold the bytes to the reference encoder's (`ExportReference`).
enum ExportScenario {
    static func run(_ options: Options, binary: String, directory: String) {
        let experiments = options.scaled(10_000), entries = options.scaled(1_000_000)
        Report.section("10. Export: \(experiments) experiments, \(entries) whitelist entries")
        let pool = Fixtures.subjects(.short, count: max(entries, 1000), seed: 5)
        let path = directory + "/export-store.json"
        _ = FileManager.default.createFile(atPath: path, contents: StoreFile.encode(Fixtures.store(experiments: experiments, whitelistTotal: entries, subjects: pool)))
        let size = Double((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
        Report.note("store file: \(Report.number(size / 1_048_576)) MiB")
        let runs = max(1, min(options.runs, options.heavyRuns))
        for format in ["client", "growthbook"] {
            let out = directory + "/export-\(format).json"
            let children = (0..<runs).map { _ in spawn(binary, ["--store", path, "export", "--format", format, "--out", out]) }
            let exported = Double((try? FileManager.default.attributesOfItem(atPath: out)[.size] as? Int) ?? 0)
            Report.check(children.allSatisfy { $0.status == 0 }, "export --format \(format) succeeds (exit \(children.map(\.status)))")
            let peak = median(children.map { Double($0.peakKiB) * 1024 })
            Report.figure("export --format \(format), end to end", median(children.map(\.wall)), "s", target: .atMost(1.5),
                          ratio: Ratio(value: peak / max(size, 1), label: "peak ÷ store file", target: .atMost(2.5)),
                          detail: "CPU \(Report.number(median(children.map(\.cpu)))) s, peak \(Report.number(peak / 1_048_576)) MiB, "
                              + "export \(Report.number(exported / 1_048_576)) MiB")
            try? FileManager.default.removeItem(atPath: out)
        }
        try? FileManager.default.removeItem(atPath: path)
    }
}
