import CBenchReference
import ExperimentCore
import ExperimentStore
import Foundation

/// Scenario 3: `abconsole assign e0 … e9 --subjects FILE --json` end to end (the real release binary),
/// beside a C program that reads the same file and writes the same bytes.
enum BatchAssignScenario {
    static func run(_ options: Options, binary: String, directory: String) {
        let count = options.batchSubjects
        Report.section("3. Batch assign end to end: \(count) subjects × 10 experiments")
        // Half short ids, half UUIDs; a few need JSON escaping.
        var ids = Fixtures.subjects(.short, count: count / 2, seed: 11) + Fixtures.subjects(.uuid, count: count - count / 2, seed: 12)
        for index in stride(from: 5, to: ids.count, by: 100_000) { ids[index] = "q\"uoted\\id-\(index)" }
        let subjectsPath = directory + "/subjects.txt"
        _ = FileManager.default.createFile(atPath: subjectsPath, contents: Data((ids.joined(separator: "\n") + "\n").utf8))
        // e0–e6 running, e7 draft, e8 paused, e9 resolved; 1,000 whitelisted subjects each.
        var experiments: [String: Experiment] = [:]
        for index in 0..<10 {
            let key = "e\(index)"
            let listed = (0..<1000).map { ids[(index * 7_919 + $0 * 997) % ids.count] }
            experiments[key] = Fixtures.experiment(key, status: Fixtures.status(index), variants: Fixtures.variants(index),
                                                   whitelist: listed, type: index % 2 == 0 ? .user : .device)
        }
        let snapshot = StoreSnapshot(revision: 10, experiments: experiments)
        let storePath = directory + "/batch-store.json"
        let bytes = StoreFile.encode(snapshot)
        guard FileManager.default.createFile(atPath: storePath, contents: bytes) else {
            Report.check(false, "write the batch store")
            return
        }
        let keys = (0..<10).map { "e\($0)" }
        let swiftOut = directory + "/assign-swift.jsonl", cOut = directory + "/assign-c.jsonl"
        let reference = CReference(snapshot: snapshot, keys: keys)
        var swiftRuns: [ChildRun] = []
        var cTimes: [Timing] = []
        var cCount: Int64 = 0
        for _ in 0..<options.runs {
            swiftRuns.append(spawn(binary, ["--store", storePath, "assign"] + keys + ["--subjects", subjectsPath, "--json"],
                                   stdout: swiftOut, stderr: directory + "/assign-stderr.txt"))
            cTimes.append(Timing.of { cCount = reference.run(subjects: subjectsPath, output: cOut) })
        }
        guard swiftRuns.allSatisfy({ $0.status == 0 }) else {
            let message = (try? String(contentsOfFile: directory + "/assign-stderr.txt", encoding: .utf8)) ?? ""
            Report.check(false, "abconsole assign exited \(swiftRuns.map(\.status)): \(message.prefix(300))")
            return
        }
        let swiftWall = median(swiftRuns.map(\.wall)), cWall = median(cTimes.map(\.wall))
        Report.figure("batch assign, C reference (reads, decides, writes)", cWall, "s",
                      detail: "CPU \(Report.number(median(cTimes.map(\.cpu)))) s; experiments precomputed, store not read")
        Report.figure("batch assign, abconsole (wall)", swiftWall, "s", target: .atMost(2.0),
                      ratio: Ratio(value: swiftWall / cWall, label: "wall ÷ C", target: .atMost(2.0)),
                      detail: "CPU \(Report.number(median(swiftRuns.map(\.cpu)))) s, peak \(Report.number(median(swiftRuns.map { Double($0.peakKiB) }) / 1024)) MiB")
        let swiftBytes = FileManager.default.contents(atPath: swiftOut) ?? Data()
        let cBytes = FileManager.default.contents(atPath: cOut) ?? Data()
        Report.note("output: \(swiftBytes.count / 1_000_000) MB, \(cCount) lines")
        Report.check(swiftBytes == cBytes && cCount == Int64(ids.count), "abconsole's output is byte-identical to the C reference's")
        // A sample of lines against the plain decision of every experiment.
        let compiled = keys.map { CompiledExperiment(snapshot.experiments[$0]!) }
        let lines = swiftBytes.split(separator: 0x0A)
        var mismatches = 0
        for index in stride(from: 0, to: ids.count, by: max(1, ids.count / 3000)) {
            let subject = Subject(userID: ids[index], deviceID: ids[index])
            let variants = compiled.map { "\"\($0.key)\":\"\($0.decide(for: subject).variant)\"" }.joined(separator: ",")
            let escaped = ids[index].replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            let expected = "{\"subject\":\"\(escaped)\",\"unknown\":[],\"variants\":{\(variants)}}"
            if index >= lines.count || String(decoding: lines[index], as: UTF8.self) != expected { mismatches += 1 }
        }
        Report.check(mismatches == 0, "\(min(ids.count, 3000)) sampled lines equal CompiledExperiment.decide(for:) (\(mismatches) mismatches)")
    }
}

/// The experiment table handed to `cbr_batch_assign`, built from the store (kept alive while it runs).
final class CReference {
    private var storage: [UnsafeMutableRawPointer] = []
    private var experiments: [cbr_experiment] = []
    private let middle: [UInt8]

    init(snapshot: StoreSnapshot, keys: [String]) {
        middle = Array("\",\"unknown\":[],\"variants\":{".utf8)
        for (offset, key) in keys.sorted().enumerated() {
            let experiment = snapshot.experiments[key]!
            let names = experiment.variants.map(\.name)
            let control = Int32(names.firstIndex(of: experiment.control)!)
            let fixed: Int32 = switch experiment.status {
            case .resolved: Int32(names.firstIndex(of: experiment.winner!)!)
            case .paused: control
            default: -1
            }
            var starts: [Int32] = [], owners: [Int32] = []
            var cursor = 0
            for (index, variant) in experiment.variants.enumerated() {
                for range in variant.ranges {
                    if range.start > cursor { starts.append(Int32(cursor)); owners.append(-1) }
                    starts.append(Int32(range.start)); owners.append(Int32(index))
                    cursor = range.end
                }
            }
            if cursor < 10_000 { starts.append(Int32(cursor)); owners.append(-1) }
            let listed = experiment.sortedWhitelist
            var listedBytes: [UInt8] = [], listedEnds: [Int64] = [], listedVariants: [Int32] = []
            for entry in listed {
                listedBytes += Array(entry.subject.utf8)
                listedEnds.append(Int64(listedBytes.count))
                listedVariants.append(Int32(names.firstIndex(of: entry.variant)!))
            }
            var fragmentBytes: [UInt8] = [], fragmentEnds: [Int64] = []
            for name in names {
                fragmentBytes += Array(((offset == 0 ? "" : ",") + "\"\(key)\":\"\(name)\"").utf8)
                fragmentEnds.append(Int64(fragmentBytes.count))
            }
            let salt = Array(experiment.salt.utf8)
            experiments.append(cbr_experiment(
                salt: keep(salt), salt_count: Int64(salt.count), fixed_index: fixed, is_draft: experiment.status == .draft ? 1 : 0,
                control_index: control, segment_count: Int32(starts.count), starts: keep(starts), owners: keep(owners),
                whitelist_count: Int64(listed.count), whitelist_bytes: keep(listedBytes), whitelist_ends: keep(listedEnds),
                whitelist_variants: keep(listedVariants), variant_count: Int32(names.count), fragment_bytes: keep(fragmentBytes),
                fragment_ends: keep(fragmentEnds)))
        }
    }

    deinit { storage.forEach { $0.deallocate() } }

    /// Runs the C batch assign; returns its line count (negative on error).
    func run(subjects: String, output: String) -> Int64 {
        cbr_batch_assign(subjects, output, experiments, Int32(experiments.count), middle, Int64(middle.count))
    }

    private func keep<T>(_ values: [T]) -> UnsafePointer<T> {
        let pointer = UnsafeMutablePointer<T>.allocate(capacity: max(values.count, 1))
        pointer.initialize(from: values, count: values.count)
        storage.append(UnsafeMutableRawPointer(pointer))
        return UnsafePointer(pointer)
    }
}
