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
        for (index, entry) in document.history.enumerated() where !Identifier.isValidSubject(entry.operatorName) {
            problems.append(StoreProblem("$.history[\(index)].operator", "must be 1–256 characters without control characters"))
        }
        return problems
    }

    /// The problems a change to a valid store can introduce: in the experiments it touched, the
    /// history entries it appended, and the store's revision (paths as in the full check).
    package static func problems(in snapshot: StoreSnapshot, changed keys: Set<String>, historyFrom firstNew: Int) -> [StoreProblem] {
        var problems: [StoreProblem] = []
        if !(0...maxRevision).contains(snapshot.revision) { problems.append(StoreProblem("$.revision", "must be 0 to \(maxRevision)")) }
        for (index, key) in snapshot.experiments.keys.sorted().enumerated() where keys.contains(key) {
            if let experiment = snapshot.experiments[key] { problems += self.problems(in: experiment, at: "$.experiments[\(index)]") }
        }
        for index in min(max(0, firstNew), snapshot.history.count)..<snapshot.history.count where !Identifier.isValidSubject(snapshot.history[index].operatorName) {
            problems.append(StoreProblem("$.history[\(index)].operator", "must be 1–256 characters without control characters"))
        }
        return problems
    }

    /// Every problem in one experiment at `path`.
    package static func problems(in experiment: Experiment, at path: String) -> [StoreProblem] {
        var problems: [StoreProblem] = []
        func fail(_ suffix: String, _ message: String) { problems.append(StoreProblem(path + suffix, message)) }
        if !Identifier.isValidName(experiment.key) { fail(".key", "`\(experiment.key)` breaks the key rule [a-z0-9][a-z0-9_.-]{0,63}") }
        if !Identifier.isValidSubject(experiment.salt) { fail(".salt", "must be 1–256 characters without control characters") }
        if !(1...maxRevision).contains(experiment.revision) { fail(".revision", "must be 1 to \(maxRevision)") }
        if experiment.variants.isEmpty { fail(".variants", "an experiment needs at least one variant") }
        let names = experiment.variants.map(\.name)
        if !names.contains(experiment.control) { fail(".control", "`\(experiment.control)` is not one of the variants") }
        switch (experiment.status, experiment.winner) {
        case (.resolved, nil): fail(".winner", "a resolved experiment needs a winner")
        case (.resolved, let winner?) where !names.contains(winner): fail(".winner", "`\(winner)` is not one of the variants")
        case (let status, _?) where status != .resolved: fail(".winner", "only a resolved experiment has a winner")
        default: break
        }
        problems += variantProblems(experiment.variants, at: path)
        // Check every entry in storage order and sort only the faulty ones, for messages in subject order.
        let faulty = experiment.whitelist.values.filter { !Identifier.isValidSubject($0.subject) || !names.contains($0.variant) }
        for entry in SubjectOrder.sorted(faulty) {
            let entryPath = ".whitelist[subject=\(quoted(entry.subject))]"
            if !Identifier.isValidSubject(entry.subject) { fail(entryPath + ".subject", "must be 1–256 characters without control characters") }
            if !names.contains(entry.variant) { fail(entryPath + ".variant", "`\(entry.variant)` is not one of the variants") }
        }
        return problems
    }

    /// Names, weights and ranges: valid, non-overlapping, and each variant's buckets equal to its weight.
    private static func variantProblems(_ variants: [Variant], at path: String) -> [StoreProblem] {
        var problems: [StoreProblem] = []
        var seen = Set<String>()
        var owned: [(range: BucketRange, variant: Int)] = []
        for (index, variant) in variants.enumerated() {
            let variantPath = "\(path).variants[\(index)]"
            if !Identifier.isValidName(variant.name) { problems.append(StoreProblem("\(variantPath).name", "`\(variant.name)` breaks the name rule [a-z0-9][a-z0-9_.-]{0,63}")) }
            if !seen.insert(variant.name).inserted { problems.append(StoreProblem("\(variantPath).name", "`\(variant.name)` is used by another variant")) }
            if let levels = variant.payload?.levels, levels > JSONValue.maxLevels {
                problems.append(StoreProblem("\(variantPath).payload", JSONValue.tooDeepMessage(levels: levels)))
            }
            var count = 0
            for (rangeIndex, range) in variant.ranges.enumerated() {
                guard range.start >= 0, range.end <= Weight.bucketCount, range.start < range.end else {
                    problems.append(StoreProblem("\(variantPath).ranges[\(rangeIndex)]", "[\(range.start), \(range.end)) is not a non-empty range within [0, 10000)"))
                    continue
                }
                count += range.count
                owned.append((range, index))
            }
            if count != variant.weight.buckets {
                problems.append(StoreProblem("\(variantPath).ranges", "the ranges hold \(count) buckets but the weight \(variant.weight) % needs \(variant.weight.buckets)"))
            }
        }
        let total = variants.reduce(0) { $0 + $1.weight.buckets }
        if total > Weight.bucketCount {
            problems.append(StoreProblem("\(path).variants", "the weights add up to \(Weight(buckets: total)) %, over 100 %"))
        }
        owned.sort { $0.range.start < $1.range.start }
        for (previous, next) in zip(owned, owned.dropFirst()) where next.range.start < previous.range.end {
            problems.append(StoreProblem("\(path).variants[\(next.variant)].ranges",
                                         "[\(next.range.start), \(next.range.end)) overlaps [\(previous.range.start), \(previous.range.end)) of variant `\(variants[previous.variant].name)`"))
        }
        return problems
    }

    private static func quoted(_ text: String) -> String {
        "\"" + text.unicodeScalars.map { Identifier.isControl($0) ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined() + "\""
    }
}
