import ExperimentCore
import ExperimentEditing
import ExperimentStore
import Foundation

/// `list`, `show`, `create`, `add-variant`, `set-payload`, `set-description`, lifecycle changes, `resolve` and `validate`.
enum ExperimentCommands {
    static func list(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let snapshot = try context.load()
        var experiments = snapshot.sortedExperiments
        if let status = try arguments.choice(Self.status, as: ExperimentStatus.self) {
            experiments = experiments.filter { $0.status == status }
        }
        if arguments[CommonOptions.json] {
            context.output.line(try SafeOutput.json(experiments.map(JSONShapes.ListRowJSON.init)))
            return
        }
        let rows = experiments.map { experiment in
            [experiment.key, experiment.type.rawValue, experiment.status.rawValue,
             experiment.winner.map { "winner=\($0)" } ?? experiment.weightSummary,
             String(experiment.whitelist.count), TimeLabel.utc(experiment.updatedAt), experiment.updatedBy]
        }
        SafeOutput.table(["KEY", "TYPE", "STATUS", "WEIGHTS", "WHITELIST", "UPDATED", "BY"], rows).forEach(context.output.line)
    }

    static func show(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let experiment = try context.experiment(arguments.required("EXP"), in: context.load())
        if arguments[CommonOptions.json] {
            context.output.line(try SafeOutput.json(ShowJSON(experiment: experiment)))
            return
        }
        let safe = SafeOutput.text
        var lines = [
            "\(safe(experiment.key))  (\(experiment.type.rawValue)-level, \(experiment.status.rawValue), revision \(experiment.revision))",
            "description: \(safe(experiment.description))",
            "salt:        \(safe(experiment.salt))",
            "control:     \(experiment.control)",
        ]
        if let winner = experiment.winner { lines.append("winner:      \(winner) (served to everyone)") }
        lines += MetricsCommands.showLines(experiment.metrics)
        lines += RampPlanCommand.showLines(experiment)
        lines.append("updated:     \(TimeLabel.utc(experiment.updatedAt)) by \(safe(experiment.updatedBy))")
        lines.append("")
        let whitelisted = Dictionary(grouping: experiment.whitelist.values, by: \.variant).mapValues(\.count)
        lines += SafeOutput.table(["VARIANT", "WEIGHT", "BUCKETS", "WHITELISTED", "PAYLOAD"], experiment.variants.map { variant in
            [variant.name, "\(variant.weight) %", variant.ranges.map { "[\($0.start),\($0.end))" }.joined(separator: " "),
             String(whitelisted[variant.name] ?? 0), variant.payload?.compactText ?? "-"]
        })
        if experiment.unallocated.buckets > 0 { lines.append("(unallocated: \(experiment.unallocated) %, served the control)") }
        lines.forEach(context.output.line)
    }

    static func create(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        guard let type = try arguments.choice(Self.type, as: SubjectType.self) else { throw CLIError.usage("missing --type", command: nil) }
        let variantsText = try arguments.required(Self.variants)
        let variants = try variantsText.split(separator: ",", omittingEmptySubsequences: false).map { try weightPair(String($0)) }
        let draft = ExperimentDraft(key: try arguments.required("EXP"), type: type, variants: variants,
                                    control: arguments[Self.control], salt: arguments[Self.salt],
                                    description: arguments[Self.description] ?? "")
        try context.apply(.create(draft))
    }

    static func addVariant(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let payload = try arguments[Self.payload].map(parsePayload)
        let key = try arguments.required("EXP"), name = try arguments.required("NAME")
        try context.apply(.addVariant(experiment: key, name: name, payload: payload), advice: "; ramp it up with `abconsole ramp \(key) \(name)=PCT`")
    }

    static func setPayload(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let text = arguments.argument("JSON")
        let clear = arguments[clearPayload]
        guard (text == nil) == clear else { throw CLIError.usage("give either a JSON payload or --clear", command: nil) }
        let payload = try text.map(parsePayload)
        try context.apply(.setPayload(experiment: arguments.required("EXP"), variant: arguments.required("NAME"), payload: payload))
    }

    static func setDescription(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        try context.apply(.setDescription(experiment: arguments.required("EXP"), description: arguments.required("TEXT")))
    }

    static func start(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        try context.apply(.start(experiment: arguments.required("EXP")))
    }

    static func pause(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        try context.apply(.pause(experiment: arguments.required("EXP")))
    }

    static func delete(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        try context.apply(.delete(experiment: arguments.required("EXP")))
    }

    static func ramp(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let key = try arguments.required("EXP")
        var weights: [String: Weight] = [:]
        for pair in try arguments.arguments("NAME=PCT").map(weightPair) {
            guard weights.updateValue(pair.weight, forKey: pair.name) == nil else { throw ExperimentError.duplicateVariant(pair.name) }
        }
        let dryRun = arguments[Self.dryRun]
        let plan: RampPlan
        if dryRun {
            plan = try context.experiment(key, in: context.load()).rampPlan(to: weights)
        } else {
            let outcome = try context.applyCommitting(.ramp(experiment: key, weights: weights))
            guard let ramp = outcome.ramp else { throw CLIError.data("the ramp produced no plan") }
            plan = ramp
            if !arguments[CommonOptions.json] { context.output.line(SafeOutput.text(outcome.message)) }
        }
        if arguments[CommonOptions.json] {
            let weights = Dictionary(uniqueKeysWithValues: plan.variants.map { ($0.name, $0.weight.percent) })
            context.output.line(try SafeOutput.json(JSONShapes.RampJSON(movedShare: plan.movedShare, movedBuckets: plan.movedBuckets, weights: weights, dryRun: dryRun)))
        } else if dryRun {
            let summary = plan.variants.map { "\($0.name)=\($0.weight)" }.joined(separator: ",")
            context.output.line("dry run: ramping `\(key)` to \(summary) would switch \(Experiment.percentText(plan.movedShare)) of subjects; nothing was written")
        }
    }

    static func validate(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let snapshot = try context.load()
        let entries = snapshot.experiments.values.reduce(0) { $0 + $1.whitelist.count }
        context.output.line("\(SafeOutput.text(context.store.path)) is valid: \(Plural.count(snapshot.experiments.count, "experiment")), \(Plural.count(entries, "whitelist entry", "whitelist entries")), \(Plural.count(snapshot.history.count, "history entry", "history entries"))")
    }

    /// `NAME=PCT` as a variant name and weight, or a clear refusal.
    static func weightPair(_ text: String) throws -> (name: String, weight: Weight) {
        guard let equals = text.firstIndex(of: "=") else {
            throw CLIError.usage("`\(SafeOutput.text(text))` is not NAME=PCT (e.g. treatment=30)", command: nil)
        }
        let name = String(text[..<equals]), percent = String(text[text.index(after: equals)...])
        switch Weight.parse(percent: percent) {
        case .success(let weight): return (name, weight)
        case .failure(let error): throw ExperimentError.invalidWeight(text: SafeOutput.text(percent), reason: error.reason)
        }
    }

    private static func parsePayload(_ text: String) throws -> JSONValue {
        switch JSONValue.parse(text) {
        case .success(let value): return value
        case .failure(.tooDeep(let levels)): throw ExperimentError.payloadTooDeep(levels: levels)
        case .failure(.invalid): throw ExperimentError.invalidPayload("`\(SafeOutput.text(String(text.prefix(80))))`")
        case .failure(let problem): throw CLIError.data(problem.message(for: text))
        }
    }
}

