import ExperimentCore
import ExperimentEditing
import Foundation

/// Test fixtures shared by the core's and the store's tests: fixed operators and whole-second
/// times (so dates survive the store's round trip), drafts and snapshots in any status.
package enum Fixture {
    package static let t0 = Date(timeIntervalSince1970: 1_767_225_600) // 2026-01-01T00:00:00Z
    package static let t1 = Date(timeIntervalSince1970: 1_767_229_200) // 2026-01-01T01:00:00Z
    package static let t2 = Date(timeIntervalSince1970: 1_767_232_800) // 2026-01-01T02:00:00Z

    package static let alice = ChangeContext(operatorName: "alice", now: t0)
    package static let bob = ChangeContext(operatorName: "bob", now: t1)
    package static let carol = ChangeContext(operatorName: "carol", now: t2)

    /// Weight from a literal percentage; the test fails loudly on a typo.
    package static func w(_ text: String) -> Weight {
        switch Weight.parse(percent: text) {
        case .success(let weight): return weight
        case .failure(let error): preconditionFailure("bad weight literal \(text): \(error)")
        }
    }

    /// A draft `key` with `variants` given as `name=pct` pairs.
    package static func draft(_ key: String, type: SubjectType = .user, _ variants: [(String, String)],
                      control: String? = nil, salt: String? = nil, description: String = "") -> ExperimentDraft {
        ExperimentDraft(key: key, type: type, variants: variants.map { (name: $0.0, weight: w($0.1)) },
                        control: control, salt: salt, description: description)
    }

    /// A snapshot holding one experiment `key` (50/50 control/treatment unless told), moved to `status`.
    package static func snapshot(_ key: String = "checkout", type: SubjectType = .user, status: ExperimentStatus = .draft,
                         variants: [(String, String)] = [("control", "50"), ("treatment", "50")],
                         winner: String = "treatment") throws -> StoreSnapshot {
        var snapshot = StoreSnapshot()
        try snapshot.apply(.create(draft(key, type: type, variants)), context: alice)
        switch status {
        case .draft: break
        case .running: try snapshot.apply(.start(experiment: key), context: alice)
        case .paused:
            try snapshot.apply(.start(experiment: key), context: alice)
            try snapshot.apply(.pause(experiment: key), context: alice)
        case .resolved:
            try snapshot.apply(.start(experiment: key), context: alice)
            try snapshot.apply(.resolve(experiment: key, winner: winner), context: alice)
        }
        return snapshot
    }
}
