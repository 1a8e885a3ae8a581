import ExperimentCore
import ExperimentEditing
import ExperimentTestSupport
import Foundation

/// Small stores in the shapes of the benchmark, built through `StoreSnapshot.apply`: the
/// point is the shape, not the size.
enum StoreShapes {
    static let names = ["huge beside small", "long histories"]
    /// A small experiment every shape holds, which the tests change.
    static let small = "small"

    static func named(_ name: String) throws -> StoreSnapshot {
        name == "long histories" ? try longHistories() : try hugeBesideSmall()
    }

    /// One experiment with `huge` entries imported together (one date, one note over 15 bytes, a
    /// few non-ASCII subjects), beside experiments with none, one, and a few added one by one.
    static func hugeBesideSmall(huge: Int = 3_000) throws -> StoreSnapshot {
        var snapshot = StoreSnapshot()
        for key in ["big", "empty", small, "zz-few"] {
            try snapshot.apply(.create(Fixture.draft(key, [("control", "50"), ("treatment", "50")])), context: Fixture.alice)
            try snapshot.apply(.start(experiment: key), context: Fixture.alice)
        }
        let rows = (0..<huge).map { index in
            WhitelistRow(line: index + 2, subject: index % 500 == 7 ? "é-\(index)" : String(format: "sub-%06d", index),
                         variant: index % 2 == 0 ? "control" : "treatment", note: "partner list 2026-11, batch 7")
        }
        try snapshot.apply(.whitelistImport(experiment: "big", rows: rows), context: Fixture.bob)
        try snapshot.apply(.whitelistAdd(experiment: small, subject: "qa-1", variant: "treatment", note: "QA"), context: Fixture.bob)
        for (index, note) in ["", "short", "a note of more than fifteen bytes", "日本語のメモ"].enumerated() {
            try snapshot.apply(.whitelistAdd(experiment: "zz-few", subject: "few-\(index)", variant: "control", note: note),
                               context: index % 2 == 0 ? Fixture.bob : Fixture.carol)
        }
        return snapshot
    }

    /// `experiments` small experiments with about `history` history entries each, interleaved.
    static func longHistories(experiments: Int = 40, history: Int = 25) throws -> StoreSnapshot {
        var snapshot = StoreSnapshot()
        let keys = (0..<experiments).map { $0 == 0 ? small : String(format: "exp-%03d", $0) }
        for key in keys {
            try snapshot.apply(.create(Fixture.draft(key, [("control", "50"), ("treatment", "50")])), context: Fixture.alice)
            try snapshot.apply(.start(experiment: key), context: Fixture.alice)
        }
        for round in 2..<history {
            for (index, key) in keys.enumerated() {
                let change: Change = round % 3 == 0
                    ? .ramp(experiment: key, weights: ["control": Fixture.w("\(50 - round)"), "treatment": Fixture.w("\(50 + round)")])
                    : .whitelistAdd(experiment: key, subject: "user-\(round)-\(index)", variant: "treatment", note: round % 2 == 0 ? "" : "note \(round)")
                try snapshot.apply(change, context: [Fixture.alice, Fixture.bob, Fixture.carol][(round + index) % 3])
            }
        }
        return snapshot
    }
}
