/// Checks a decoded store against every rule of SPEC §1–§6 and lists each problem with its JSON path.
package enum StoreValidator {
    /// The largest revision accepted: every JSON reader holds it exactly, and incrementing it never overflows.
    static let maxRevision = (1 << 53) - 1

    /// Every problem in `document`; empty when the store is valid.
    package static func problems(in document: StoreDocument) -> [StoreProblem] {
        var problems: [StoreProblem] = []
        if document.schemaVersion != StoreSnapshot.currentSchemaVersion {
            problems.append(StoreProblem("$.schema_version", "schema version \(document.schemaVersion) is not supported; this abconsole reads version \(StoreSnapshot.currentSchemaVersion)"))
        }
        if !(0...maxRevision).contains(document.revision) { problems.append(StoreProblem("$.revision", "must be 0 to \(maxRevision)")) }
        var firstIndex: [String: Int] = [:]
        for (index, experiment) in document.experiments.enumerated() {
            let path = "$.experiments[\(index)]"
            if let earlier = firstIndex.updateValue(index, forKey: experiment.key) {
                problems.append(StoreProblem("\(path).key", "experiment `\(experiment.key)` is also at $.experiments[\(earlier)]"))
            }
            problems += self.problems(in: experiment, at: path)
        }
        problems += historyProblems(document.history, from: 0)
        return problems
    }

    /// The problems a change to a valid store can introduce: in the experiments it touched, the
    /// history entries it appended, and the store's revision (paths as in the full check; `omitted`
    /// entries the transaction left in the file precede the snapshot's history).
    package static func problems(in snapshot: StoreSnapshot, changed keys: Set<String>, historyFrom firstNew: Int,
                                 after omitted: Int = 0) -> [StoreProblem] {
        var problems: [StoreProblem] = []
        if !(0...maxRevision).contains(snapshot.revision) { problems.append(StoreProblem("$.revision", "must be 0 to \(maxRevision)")) }
        for (index, key) in snapshot.experiments.keys.sorted().enumerated() where keys.contains(key) {
            if let experiment = snapshot.experiments[key] { problems += self.problems(in: experiment, at: "$.experiments[\(index)]") }
        }
        problems += historyProblems(snapshot.history, from: firstNew, after: omitted)
        return problems
    }

}
