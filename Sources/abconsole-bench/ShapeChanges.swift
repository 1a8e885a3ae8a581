import ExperimentCore
import ExperimentStore
import Foundation

/// One change of each kind to the experiment holding the most entries of a shape, through the real
/// binary: wall time, CPU, and peak memory as a ratio to the file (targets ≤ 1.5 s, ≤ 2.5×).
enum ShapeChanges {
    /// The kinds measured, each as the arguments of one command on experiment `key` in run `run`.
    static let kinds: [(name: String, arguments: @Sendable (_ key: String, _ run: Int) -> [String])] = [
        ("whitelist add", { ["whitelist", "add", $0, "bench-change-\($1)", "control", "--note", "added by the benchmark"] }),
        ("whitelist note", { ["whitelist", "note", $0, "bench-change-\($1)", "a changed note"] }),
        ("whitelist remove", { ["whitelist", "remove", $0, "bench-change-\($1)"] }),
        ("ramp", { ["ramp", $0, $1 % 2 == 0 ? "control=40" : "control=50", $1 % 2 == 0 ? "treatment=60" : "treatment=50"] }),
        ("set-payload", { ["set-payload", $0, "treatment", "{\"color\": \"green\", \"run\": \($1)}"] }),
        ("set-description", { ["set-description", $0, "changed by benchmark run \($1)"] }),
        ("pause", { key, _ in ["pause", key] }),
        ("start", { key, _ in ["start", key] }),
    ]

    static func measure(_ key: String, store path: String, runs: Int, binary: String, directory: String) {
        let size = Double((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
        var results = Array(repeating: [ChildRun](), count: kinds.count)
        for run in 0..<runs {
            for (index, kind) in kinds.enumerated() {
                results[index].append(spawn(binary, ["--store", path, "--operator", "bench"] + kind.arguments(key, run),
                                            stderr: directory + "/change-stderr.txt"))
            }
        }
        Report.check(results.allSatisfy { $0.allSatisfy { $0.status == 0 } },
                     "every change to \(key) succeeds (exit \(results.map { $0.map(\.status) }))")
        for (index, kind) in kinds.enumerated() {
            let peak = median(results[index].map { Double($0.peakKiB) * 1024 })
            Report.figure("\(kind.name) to \(key), end to end", median(results[index].map(\.wall)), "s", target: .atMost(1.5),
                          ratio: Ratio(value: peak / max(size, 1), label: "peak ÷ file", target: .atMost(2.5)),
                          detail: "CPU \(Report.number(median(results[index].map(\.cpu)))) s, peak \(Report.number(peak / 1_048_576)) MiB, "
                              + "file \(Report.number(size / 1_048_576)) MiB")
        }
    }
}
