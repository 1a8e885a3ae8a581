import ExperimentCore
import ExperimentStore
import Foundation

/// The three store shapes of the benchmark, about a million records each, and the files they start from.
struct ShapeStore {
    /// One line of the report: what the store holds and how it was built.
    let title: String
    /// The store file written by the real writer (`StoreFile.encode`).
    let snapshot: StoreSnapshot
    /// Imports run through the CLI before measuring (shape a), experiment key and CSV rows.
    let imports: [(experiment: String, rows: Int, seed: UInt64)]
    /// A small experiment that `whitelist add` changes, and one a measured import goes into.
    let smallExperiment: String
    /// The experiment holding the most entries, which one change of each kind is measured on.
    var biggestExperiment = "exp_0000"

    /// (a) few experiments with huge whitelists: 200 experiments, then four CLI imports of `rows` each.
    static func fewHuge(rows: Int) -> ShapeStore {
        let snapshot = Fixtures.store(experiments: 200, whitelistTotal: 0, subjects: [], running: true)
        let keys = [40, 80, 120, 160].map { String(format: "exp_%04d", $0) }
        return ShapeStore(title: "a. 200 experiments, four of them with \(rows) whitelist entries (four CLI imports of UUID rows with a note)",
                          snapshot: snapshot, imports: keys.enumerated().map { ($0.element, rows, UInt64(31 + $0.offset)) },
                          smallExperiment: "exp_0001", biggestExperiment: keys[0])
    }

    /// (b) many medium whitelists: `experiments` × `perExperiment` entries, written by the writer.
    static func evenlySpread(experiments: Int, perExperiment: Int) -> ShapeStore {
        let pool = Fixtures.subjects(.short, count: max(experiments * perExperiment, 1000), seed: 3)
        let snapshot = Fixtures.store(experiments: experiments, whitelistTotal: experiments * perExperiment, subjects: pool)
        return ShapeStore(title: "b. \(experiments) experiments × \(perExperiment) whitelist entries (the writer)",
                          snapshot: snapshot, imports: [], smallExperiment: "exp_0001")
    }

    /// (c) many small experiments with long histories: `experiments` × `history` history entries, written by the writer.
    static func longHistories(experiments count: Int, whitelist: Int, history: Int) -> ShapeStore {
        let pool = Fixtures.subjects(.short, count: max(count * whitelist, 1000), seed: 7)
        var snapshot = Fixtures.store(experiments: count, whitelistTotal: count * whitelist, subjects: pool)
        snapshot.history = Fixtures.history(experiments: snapshot.experiments.keys.sorted(), rounds: history)
        snapshot.revision = snapshot.history.count
        return ShapeStore(title: "c. \(count) experiments × \(whitelist) whitelist entries, \(history) history entries each (the writer)",
                          snapshot: snapshot, imports: [], smallExperiment: "exp_0001")
    }
}

extension ShapeStore {
    /// (d) one experiment holding `entries` UUID entries with a note (about 220 bytes a line), beside a small one.
    static func oneHuge(entries: Int) -> ShapeStore {
        var snapshot = Fixtures.store(experiments: 2, whitelistTotal: 0, subjects: [], running: true)
        var whitelist = [SubjectID: WhitelistEntry](minimumCapacity: entries)
        for (index, subject) in Fixtures.subjects(.uuid, count: entries, seed: 51).enumerated() {
            whitelist[SubjectID(subject)] = WhitelistEntry(subject: subject, variant: index % 2 == 0 ? "control" : "treatment",
                                                           note: "partner list 2026-11, imported from the CRM export (batch 7 of 12)",
                                                           addedBy: "alice", addedAt: Fixtures.epoch)
        }
        snapshot.experiments["exp_0000"]?.whitelist = whitelist
        return ShapeStore(title: "d. one experiment with \(entries) whitelist entries (UUIDs with a note) beside a small one (the writer)",
                          snapshot: snapshot, imports: [], smallExperiment: "exp_0001", biggestExperiment: "exp_0000")
    }
}

extension Fixtures {
    /// `rounds` history entries per experiment, interleaved in time as a busy store records them.
    static func history(experiments keys: [String], rounds: Int) -> [HistoryEntry] {
        var history: [HistoryEntry] = []
        history.reserveCapacity(keys.count * rounds)
        let operators = ["alice", "maria.pm", "dev.jonas", "support.li"]
        for round in 0..<rounds {
            for (index, key) in keys.enumerated() {
                let at = epoch.addingTimeInterval(Double(round * keys.count + index))
                let who = operators[(round + index) % operators.count]
                let entry: HistoryEntry
                switch round {
                case 0: entry = HistoryEntry(at: at, operatorName: who, experiment: key, action: .create, before: nil, after: "draft control=50,treatment=50")
                case 1: entry = HistoryEntry(at: at, operatorName: who, experiment: key, action: .start, before: "draft", after: "running")
                default:
                    if round % 3 == 0 {
                        let share = 10 + round % 40
                        entry = HistoryEntry(at: at, operatorName: who, experiment: key, action: .ramp,
                                             before: "control=\(100 - share + 1),treatment=\(share - 1)", after: "control=\(100 - share),treatment=\(share)")
                    } else {
                        entry = HistoryEntry(at: at, operatorName: who, experiment: key, action: .whitelistAdd,
                                             before: nil, after: "user-\(round * 7_919 + index)=treatment")
                    }
                }
                history.append(entry)
            }
        }
        return history
    }

    /// A whitelist import file: a header, then `rows` UUID subjects alternating variants, each with a short note.
    static func importCSV(rows: Int, seed: UInt64) -> Data {
        var csv = "subject,variant,note\n"
        csv.reserveCapacity(rows * 60)
        for (index, subject) in subjects(.uuid, count: rows, seed: seed).enumerated() {
            csv += subject + (index % 2 == 0 ? ",control," : ",treatment,") + "partner list \(seed)\n"
        }
        return Data(csv.utf8)
    }
}
