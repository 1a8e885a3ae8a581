import CBenchReference
import ExperimentCore
import ExperimentStore
import Foundation

/// Scenario 1: `bucket(salt, subject)` + choosing the variant, for short ids and UUIDs, Swift beside C.
///
/// The experiment is running with no whitelist, so a decision is exactly the bucket and the segment
/// lookup. The subjects are a working set that stays in cache (as a request's subject does), hashed
/// over and over; the figure is assignments per second of this thread's CPU time.
enum BucketingScenario {
    static func run(_ options: Options) {
        Report.section("1. Bucketing: bucket(salt, subject) + choosing the variant, one core")
        let experiment = Fixtures.experiment("paywall_copy", status: .running,
                                             variants: [("control", 2000), ("treatment", 3000), ("bold", 4000)])
        let compiled = CompiledExperiment(experiment)
        let starts: [Int32] = [0, 2000, 5000, 9000], owners: [Int32] = [0, 1, 2, -1]
        let salt = Array(experiment.salt.utf8)
        for kind in [Fixtures.SubjectKind.short, .uuid] {
            let ids = Fixtures.subjects(kind, count: options.workingSet, seed: kind == .short ? 1 : 2)
            let packed = PackedSubjects(ids)
            let ends = packed.ends.map(Int64.init)
            let passes = max(1, Int(Double(options.bucketingAssignments) / Double(ids.count)))
            let total = Double(passes * ids.count)
            var swiftStrings = [Int32](repeating: -9, count: ids.count)
            var swiftPacked = swiftStrings, cPlain = swiftStrings, cSame = swiftStrings
            var times: [String: [Double]] = [:]
            for _ in 0..<options.runs {
                // Side by side in the same run, so that load from other processes hits all alike.
                times["strings", default: []].append(Timing.of {
                    swiftStrings.withUnsafeMutableBufferPointer { out in for _ in 0..<passes { compiled.variantIndices(forIDs: ids, into: out) } }
                }.cpu)
                times["packed", default: []].append(Timing.of {
                    swiftPacked.withUnsafeMutableBufferPointer { out in for _ in 0..<passes { compiled.variantIndices(for: packed, into: out) } }
                }.cpu)
                times["c", default: []].append(Timing.of {
                    for _ in 0..<passes { callC(cbr_assign_plain, salt, packed.bytes, ends, starts, owners, &cPlain) }
                }.cpu)
                times["c-same", default: []].append(Timing.of {
                    for _ in 0..<passes { callC(cbr_assign_interleaved, salt, packed.bytes, ends, starts, owners, &cSame) }
                }.cpu)
            }
            let rate = { (key: String) in total / median(times[key] ?? []) / 1e6 }
            let cTime = median(times["c"] ?? []), cSameTime = median(times["c-same"] ?? [])
            let label = kind == .short ? "short ids (\(ids[0]))" : "36-char UUIDs"
            Report.figure("bucketing \(label), C -O2 plain", rate("c"), "M/s", detail: "reference")
            Report.figure("bucketing \(label), C same algorithm", rate("c-same"), "M/s",
                          detail: "4 chains + digit table, informative")
            Report.figure("bucketing \(label), Swift [String]", rate("strings"), "M/s", target: .atLeast(50),
                          ratio: Ratio(value: median(times["strings"] ?? []) / cTime, label: "time ÷ C plain", target: .atMost(1.25)),
                          detail: "time ÷ C same algorithm = \(Report.number(median(times["strings"] ?? []) / cSameTime))×")
            Report.figure("bucketing \(label), Swift packed UTF-8", rate("packed"), "M/s", target: .atLeast(50),
                          ratio: Ratio(value: median(times["packed"] ?? []) / cTime, label: "time ÷ C plain", target: .atMost(1.25)),
                          detail: "time ÷ C same algorithm = \(Report.number(median(times["packed"] ?? []) / cSameTime))×")
            // Every fast answer against the plain implementation: Bucketer.bucket(salt:subject:) and the ranges.
            var mismatches = 0
            for index in stride(from: 0, to: ids.count, by: max(1, ids.count / 2000)) {
                let bucket = Bucketer.bucket(salt: experiment.salt, subject: ids[index])
                let owner = experiment.variants.firstIndex { $0.ranges.contains { $0.start <= bucket && bucket < $0.end } } ?? 0
                let decided = experiment.variants.firstIndex { $0.name == compiled.decide(for: Subject(userID: ids[index])).variant }
                if [swiftStrings[index], swiftPacked[index], cPlain[index], cSame[index]] != Array(repeating: Int32(owner), count: 4) || decided != owner {
                    mismatches += 1
                }
            }
            Report.check(mismatches == 0, "\(label): \(min(ids.count, 2000)) sampled answers equal Bucketer.bucket(salt:subject:) + ranges, decide(for:) and C (\(mismatches) mismatches)")
        }
    }

    typealias CAssign = (UnsafePointer<UInt8>?, Int64, UnsafePointer<UInt8>?, UnsafePointer<Int64>?, Int64,
                         UnsafePointer<Int32>?, UnsafePointer<Int32>?, Int32, Int32, UnsafeMutablePointer<Int32>?) -> Void

    static func callC(_ function: CAssign, _ salt: [UInt8], _ bytes: [UInt8], _ ends: [Int64], _ starts: [Int32], _ owners: [Int32], _ out: inout [Int32]) {
        function(salt, Int64(salt.count), bytes, ends, Int64(ends.count), starts, owners, Int32(starts.count), 0, &out)
    }
}
