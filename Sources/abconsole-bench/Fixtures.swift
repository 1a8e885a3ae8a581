import ExperimentCore
import ExperimentStore
import ExperimentTestSupport
import Foundation

/// Generated subjects, experiments and stores.
enum Fixtures {
    enum SubjectKind: String { case short, uuid }

    /// `count` distinct ids: `user-1234567` style or lowercase 36-character UUIDs.
    static func subjects(_ kind: SubjectKind, count: Int, seed: UInt64) -> [String] {
        var random = SplitMix64(seed: seed)
        switch kind {
        case .short:
            // Distinct: a random start and a stride coprime with the range.
            let base = Int(random.next() % 1_000_000)
            return (0..<count).map { "user-\(1_000_000 + (base + $0 * 7_919) % 9_000_000)" }
        case .uuid:
            let hex = Array("0123456789abcdef".utf8)
            return (0..<count).map { _ in
                var bytes = [UInt8]()
                bytes.reserveCapacity(36)
                var bits = random.next(), more = random.next()
                for position in 0..<36 {
                    if [8, 13, 18, 23].contains(position) {
                        bytes.append(UInt8(ascii: "-"))
                        continue
                    }
                    bytes.append(hex[Int(bits & 15)])
                    bits >>= 4
                    if position == 15 { bits = more; more = random.next() }
                    if position == 31 { bits = more }
                }
                return String(decoding: bytes, as: UTF8.self)
            }
        }
    }

    static let epoch = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z

    /// A valid experiment: `variants` laid out from bucket 0 (weights in buckets), the rest unallocated.
    static func experiment(_ key: String, status: ExperimentStatus, variants: [(String, Int)], whitelist: [String] = [],
                           type: SubjectType = .user, salt: String? = nil, description: String = "") -> Experiment {
        var start = 0
        let laidOut = variants.map { name, buckets in
            defer { start += buckets }
            return Variant(name: name, weight: Weight(buckets: buckets), ranges: buckets > 0 ? [BucketRange(start, start + buckets)] : [])
        }
        var entries: [SubjectID: WhitelistEntry] = [:]
        entries.reserveCapacity(whitelist.count)
        for (offset, subject) in whitelist.enumerated() {
            entries[SubjectID(subject)] = WhitelistEntry(subject: subject, variant: variants[offset % variants.count].0,
                                                         note: offset % 3 == 0 ? "QA device" : "", addedBy: "alice",
                                                         addedAt: epoch.addingTimeInterval(Double(offset)))
        }
        return Experiment(key: key, type: type, status: status, salt: salt ?? key, control: variants[0].0,
                          winner: status == .resolved ? variants[variants.count - 1].0 : nil, description: description,
                          revision: 3, createdAt: epoch, updatedAt: epoch, updatedBy: "alice", variants: laidOut, whitelist: entries)
    }

    /// The status mix of a realistic store: mostly running, some drafts, paused and resolved.
    static func status(_ index: Int) -> ExperimentStatus {
        switch index % 10 {
        case 7: .draft
        case 8: .paused
        case 9: .resolved
        default: .running
        }
    }

    /// The variants of experiment `index`: two or three arms, sometimes with unallocated buckets.
    static func variants(_ index: Int) -> [(String, Int)] {
        switch index % 4 {
        case 0: [("control", 5000), ("treatment", 5000)]
        case 1: [("control", 2000), ("treatment", 3000), ("bold", 5000)]
        case 2: [("control", 4000), ("treatment", 4000)]
        default: [("control", 3333), ("treatment", 3333), ("bold", 3334)]
        }
    }

    /// `experiments` experiments with `whitelistTotal` whitelist entries spread evenly, and a history.
    /// With `running`, every experiment is running with two arms (as `create` and `start` leave it).
    static func store(experiments count: Int, whitelistTotal: Int, subjects pool: [String], running: Bool = false) -> StoreSnapshot {
        let perExperiment = count == 0 ? 0 : whitelistTotal / count
        var experiments: [String: Experiment] = [:]
        var history: [HistoryEntry] = []
        for index in 0..<count {
            let key = String(format: "exp_%04d", index)
            let listed = (0..<perExperiment).map { pool[(index * perExperiment + $0) % pool.count] }
            experiments[key] = experiment(key, status: running ? .running : status(index), variants: running ? variants(0) : variants(index), whitelist: listed,
                                          type: index % 5 == 4 ? .device : .user, description: "Benchmark experiment \(index)")
            history.append(HistoryEntry(at: epoch, operatorName: "alice", experiment: key, action: .create, before: nil, after: "created"))
        }
        return StoreSnapshot(revision: count, experiments: experiments, history: history)
    }
}
