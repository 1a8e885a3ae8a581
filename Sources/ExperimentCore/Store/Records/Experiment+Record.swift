import Foundation

extension Experiment: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case key, type, status, salt, control, winner, description, revision, variants, whitelist, metrics, plan
        case createdAt = "created_at", updatedAt = "updated_at", updatedBy = "updated_by"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        key = try container.decode(String.self, forKey: .key)
        type = try container.decodeChoice(SubjectType.self, forKey: .type)
        status = try container.decodeChoice(ExperimentStatus.self, forKey: .status)
        salt = try container.decode(String.self, forKey: .salt)
        control = try container.decode(String.self, forKey: .control)
        winner = try container.decodeIfPresent(String.self, forKey: .winner)
        description = try container.decode(String.self, forKey: .description)
        revision = try container.decode(Int.self, forKey: .revision)
        createdAt = try container.decodeDate(forKey: .createdAt)
        updatedAt = try container.decodeDate(forKey: .updatedAt)
        updatedBy = try container.decode(String.self, forKey: .updatedBy)
        variants = try container.decode([Variant].self, forKey: .variants)
        let entries = try container.decode([WhitelistEntry].self, forKey: .whitelist)
        var whitelist: [SubjectID: WhitelistEntry] = [:]
        whitelist.reserveCapacity(entries.count)
        for entry in entries where whitelist.updateValue(entry, forKey: SubjectID(entry.subject)) != nil {
            throw DecodingError.dataCorruptedError(forKey: .whitelist, in: container,
                                                   debugDescription: "subject `\(entry.subject)` is listed twice")
        }
        self.whitelist = whitelist
        metrics = try container.decodeIfPresent(ExperimentMetrics.self, forKey: .metrics) ?? .none
        if let value = try container.decodeIfPresent(JSONValue.self, forKey: .plan) {
            guard let plan = RolloutPlan(json: value) else {
                throw DecodingError.dataCorruptedError(forKey: .plan, in: container, debugDescription: "expected a ramp plan (SPEC §14)")
            }
            self.plan = plan
        }
        unknownFields = try decoder.unknownFields(known: Set(CodingKeys.allCases.map(\.rawValue)))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(key, forKey: .key)
        try container.encode(type, forKey: .type)
        try container.encode(status, forKey: .status)
        try container.encode(salt, forKey: .salt)
        try container.encode(control, forKey: .control)
        try container.encode(winner, forKey: .winner)
        try container.encode(description, forKey: .description)
        try container.encode(revision, forKey: .revision)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
        try container.encode(updatedBy, forKey: .updatedBy)
        try container.encode(variants, forKey: .variants)
        try container.encode(sortedWhitelist, forKey: .whitelist)
        if !metrics.isAbsent { try container.encode(metrics, forKey: .metrics) }
        if let plan { try container.encode(plan.jsonValue, forKey: .plan) }
        try encoder.encodeUnknown(unknownFields)
    }
}

// MARK: - The fast reader (`StoreReader`)

extension StoreReader {
    /// One experiment; `deferring`, its whitelist in the writer's form is left in `deferred` as an
    /// array (the experiment's is empty); `listing`, it is left in `listed` as subject to variant
    /// index (the experiment's is empty); given `kept` without its key, see `StoreReader.reading`.
    static func readExperiment(_ cursor: inout JSONCursor, verbatim: inout [String: Range<Int>]?, written: WrittenSpan?, kept: Set<String>?,
                               deferring: Bool, deferred: inout [PendingEntry]?, listing: Bool = false,
                               listed: inout [SubjectID: Int32]?) -> Experiment? {
        let start = cursor.nextTokenPosition()
        var writtenEntries: Range<Int>?, omitted = false
        var key: String?, type: SubjectType?, status: ExperimentStatus?, salt: String?, control: String?
        var winner: String??, description: String?, revision: Int?, createdAt: Date?, updatedAt: Date?
        var updatedBy: String?, variants: [Variant]?, whitelist: [SubjectID: WhitelistEntry]?, metrics: ExperimentMetrics?
        var plan: RolloutPlan?, unknown: [String: JSONValue] = [:]
        let complete = readObject(&cursor) { cursor, field in
            switch Field(field) {
            case "key": return once(&key, cursor.string())
            case "type": return once(&type, cursor.string().flatMap(SubjectType.init(rawValue:)))
            case "status": return once(&status, cursor.string().flatMap(ExperimentStatus.init(rawValue:)))
            case "salt": return once(&salt, cursor.string())
            case "control": return once(&control, cursor.string())
            case "winner": return once(&winner, optionalString(&cursor))
            case "description": return once(&description, cursor.string())
            case "revision": return once(&revision, cursor.integer())
            case "created_at": return once(&createdAt, date(&cursor))
            case "updated_at": return once(&updatedAt, date(&cursor))
            case "updated_by": return once(&updatedBy, cursor.string())
            case "variants": return once(&variants, readArray(&cursor, readVariant))
            case "metrics": return once(&metrics, readMetrics(&cursor))
            case "plan": return once(&plan, readPlan(&cursor))
            case "whitelist":
                if let kept, whitelist == nil, let key, !kept.contains(key), let variants,
                   let entries = checkedWrittenEntries(&cursor, variants: variants.map(\.name)) {
                    (writtenEntries, omitted, whitelist) = (entries, true, [:])
                    return true
                }
                if listing, whitelist == nil, let variants,
                   let indices = bracketed(&cursor, { readWrittenEntryIndices(&$0, variants: variants.map(\.name)) }) {
                    (listed, whitelist) = (indices, [:])
                    return true
                }
                if deferring, whitelist == nil, let entries = bracketed(&cursor, readWrittenEntryList) {
                    (deferred, whitelist) = (entries, [:])
                    return true
                }
                return once(&whitelist, readWhitelist(&cursor, writtenEntries: &writtenEntries))
            default: return keepUnknown(&unknown, field, &cursor)
            }
        }
        guard complete, let key, let type, let status, let salt, let control, let description, let revision,
              let createdAt, let updatedAt, let updatedBy, let variants, let whitelist else { return nil }
        var experiment = Experiment(key: key, type: type, status: status, salt: salt, control: control, winner: winner ?? nil,
                                    description: description, revision: revision, createdAt: createdAt, updatedAt: updatedAt,
                                    updatedBy: updatedBy, variants: variants, whitelist: whitelist, metrics: metrics ?? .none)
        experiment.unknownFields = unknown
        experiment.plan = plan
        if let written, let writtenEntries,
           let span = written(experiment, cursor.bytes, start..<cursor.position, writtenEntries) {
            verbatim?[key] = span
        } else if omitted {
            // Not the writer's bytes after all, so the save encodes it: read it again, entries and all.
            cursor.rewind(to: start)
            return readExperiment(&cursor, verbatim: &verbatim, written: written, kept: nil, deferring: false, deferred: &deferred, listed: &listed)
        }
        return experiment
    }
}

// MARK: - Validation (`StoreValidator`)

extension StoreValidator {
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
        problems += whitelistProblems(experiment.whitelist, variants: names, at: path)
        problems += experiment.metrics.problems.map { StoreProblem(path + ".metrics" + $0.path, $0.message) }
        problems += (experiment.plan?.problems(variants: names) ?? []).map { StoreProblem(path + ".plan" + $0.path, $0.message) }
        return problems
    }
}
