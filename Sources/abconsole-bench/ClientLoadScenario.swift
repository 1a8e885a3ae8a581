import ExperimentClient
import ExperimentCore
import Foundation

/// Scenario 7, continued: a client snapshot with a big whitelist loaded by the real `client-example`
/// process, at a quarter of the size and at the full size (1,000,000 entries): wall time, and peak
/// resident set against the snapshot's size.
///
/// The snapshot is what `export --format client` writes (`ClientSnapshotDocument.encoded()`) for one
/// running experiment, `account_add_funds` (a key `client-example` knows), whose whitelist holds N
/// `user-NNNNNNN` subjects, alternately in each variant. The child reads the file with
/// `replaceSnapshot(contentsOf:)`, prints its keys and exits; its peak includes the process's own
/// baseline (shown on the sample snapshot).
enum ClientLoadScenario {
    static func run(_ options: Options, directory: String) {
        Report.section("7c. Client library: a big-whitelist snapshot loaded by client-example")
        let example = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("client-example").path
        guard access(example, X_OK) == 0 else {
            Report.note("client-example not found beside the benchmark: skipped (swift build -c release --product client-example)")
            return
        }
        let out = directory + "/client-load.out", err = directory + "/client-load.err"
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("sample-data/experiments.json").path
        let base = spawn(example, ["--snapshot", sample, "--user", "user-42"])
        Report.note("client-example on the sample store: peak \(Report.number(Double(base.peakKiB) / 1024)) MiB (the process's own baseline)")
        let full = options.scaled(1_000_000)
        var walls: [Double] = [], cpus: [Double] = [], added: [Double] = []
        for count in [full / 4, full] {
            let path = directory + "/client-\(count).json"
            let subjects = Fixtures.subjects(.short, count: count, seed: 5)
            guard let bytes = snapshot(subjects), FileManager.default.createFile(atPath: path, contents: bytes) else {
                Report.check(false, "a \(count)-entry client snapshot written to \(path)")
                return
            }
            // The last subject in the list: whitelisted into account_view when its index is odd.
            let probe = subjects[count - 1], expected = (count - 1) % 2 == 1 ? "account_view" : "control"
            var runs: [ChildRun] = []
            for _ in 0..<options.runs { runs.append(spawn(example, ["--snapshot", path, "--user", probe], stdout: out, stderr: err)) }
            let printed = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
            let complaints = (try? String(contentsOfFile: err, encoding: .utf8)) ?? "?"
            // The other typed keys are not in this snapshot (a line each on stderr); the snapshot itself must be used.
            Report.check(runs.allSatisfy { $0.status == 0 } && printed.contains("account_add_funds \(expected)\n") && !complaints.contains("not used"),
                         "client-example uses the \(count)-entry snapshot and serves a whitelisted subject its variant")
            let wall = median(runs.map(\.wall)), peak = median(runs.map { Double($0.peakKiB) * 1024 })
            let megabytes = Report.number(Double(bytes.count) / 1_000_000)
            Report.figure("client-example load, \(count) whitelist entries (\(megabytes) MB)", wall, "s", target: count == full ? .atMost(1) : nil,
                          detail: "wall of the whole process; CPU \(Report.number(median(runs.map(\.cpu)))) s")
            Report.figure("peak memory ÷ snapshot size, \(count) entries", peak / Double(bytes.count), "×", target: count == full ? .atMost(3) : nil,
                          detail: "peak \(Report.number(peak / 1_048_576)) MiB for \(megabytes) MB; above the baseline "
                              + "\(Report.number((peak - Double(base.peakKiB) * 1024) / Double(bytes.count)))×")
            walls.append(wall)
            cpus.append(median(runs.map(\.cpu)))
            added.append(peak - Double(base.peakKiB) * 1024)
            unlink(path)
        }
        // Wall time moves with the machine's load; CPU time and the memory above the baseline are the steadier measures of growth.
        if walls.count == 2, walls[0] > 0, cpus[0] > 0, added[0] > 0 {
            Report.figure("memory above the baseline at 4× the entries", added[1] / added[0], "×", target: .atMost(4.5), detail: "4 is linear")
            Report.figure("CPU time at 4× the entries", cpus[1] / cpus[0], "×", target: .atMost(4.5),
                          detail: "4 is linear; wall \(Report.number(walls[1] / walls[0]))×")
        }
    }

    /// The client export of one running experiment with `subjects` whitelisted, alternately control and account_view.
    static func snapshot(_ subjects: [String]) -> Data? {
        let epoch = Date(timeIntervalSince1970: 0)
        var whitelist = [SubjectID: WhitelistEntry](minimumCapacity: subjects.count)
        for (index, subject) in subjects.enumerated() {
            whitelist[SubjectID(subject)] = WhitelistEntry(subject: subject, variant: index % 2 == 1 ? "account_view" : "control",
                                                           note: "", addedBy: "bench", addedAt: epoch)
        }
        let variants = [Variant(name: "control", weight: Weight(buckets: 5000), ranges: [BucketRange(0, 5000)], payload: nil),
                        Variant(name: "account_view", weight: Weight(buckets: 5000), ranges: [BucketRange(5000, 10_000)], payload: nil)]
        let experiment = Experiment(key: "account_add_funds", type: .user, status: .running, salt: "account_add_funds", control: "control",
                                    winner: nil, description: "", revision: 1, createdAt: epoch, updatedAt: epoch, updatedBy: "bench",
                                    variants: variants, whitelist: whitelist)
        return try? ClientSnapshotDocument(StoreSnapshot(revision: 1, experiments: [experiment.key: experiment])).encoded()
    }
}
