import ExperimentCore
import ExperimentResults
import Foundation

/// `plan`: power and duration (SPEC §12), from an experiment's traffic so far or for a draft.
enum PlanCommand {
    static let metric = Option("--metric", "M", "the metric (default: the goal, else the first metric)")
    static let mde = Option("--mde", "REL", "the relative effect to detect: 5% or 0.05 (default), below 1,000 %")
    static let power = Option("--power", "P", "the power to reach: 80% or 0.8 (default), at least 50 % and below 100 %")
    static let dailySubjects = Option("--daily-subjects", "N", "draft: subjects a day over all variants (with --baseline, no EXP)")
    static let baseline = Option("--baseline", "RATE", "draft: the control's conversion rate, 4% or 0.04")
    static let variants = Option("--variants", "K", "draft: the number of variants sharing the traffic (default 2)")
    static let evidence = EvidenceOptions(
        exposures: Option("--exposures", "PATH", "exposures log or directory (default as for results)", repeatable: true),
        conversions: Option("--conversions", "PATH", "conversions log or directory (default as for results)", repeatable: true),
        summary: Option("--summary", "FILE", "pre-aggregated CSV instead of the logs"))
    static let from = Option("--from", "TIME", "window start (default: the current phase's start)")
    static let to = Option("--to", "TIME", "window end (default: the resolve, else now)")
    static let options: [any DeclaredOption] = [metric, mde, power, dailySubjects, baseline, variants] + evidence.all
        + [from, to, CommonOptions.json]

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let mde = try DecimalText.shareOption(arguments, Self.mde, default: PowerPlan.defaultEffect,
                                              "a relative effect above 0 and below 1,000 %, as 5% or 0.05", valid: PowerPlan.effects.contains)
        let target = try DecimalText.shareOption(arguments, Self.power, default: PowerPlan.defaultPower,
                                                 "a power of at least 50 % and below 100 %, as 80% or 0.8", valid: PowerPlan.powers.contains)
        let draftOptions = arguments.given([Self.dailySubjects, Self.baseline, Self.variants])
        guard let key = arguments.argument("EXP") else {
            return try draft(arguments, context, mde: mde, target: target)
        }
        if let option = draftOptions.first {
            throw CLIError.usage("\(option.name) plans a draft; give it without EXP (with EXP the plan uses the experiment's own traffic)", command: nil)
        }
        let snapshot = try context.load()
        let experiment = try context.experiment(key, in: snapshot)
        let window = try ResultsCommand.window(arguments, experiment, snapshot, context, from: Self.from, to: Self.to)
        let wanted = arguments[Self.metric] ?? experiment.metrics.goal?.metric
        let analysis = try ResultsCommand.analyze(arguments, context, experiment, window: window, metrics: wanted.map { [$0] } ?? [], options: Self.evidence)
        guard analysis.subjects.analysed > 0 else {
            throw CLIError.data("`\(key)` has no analysed subjects in the window \(ResultsFormat.time(window.from)) – \(ResultsFormat.time(window.to)), so there is no traffic to plan from; plan a draft with --daily-subjects N --baseline RATE")
        }
        guard let metric = wanted ?? analysis.metrics.first?.name else {
            throw CLIError.data("no metric to plan with: no conversion of `\(key)`'s subjects names one in the window")
        }
        let planned: PowerPlan?
        do throws(PowerPlanError) {
            planned = try PowerPlan(analysis, metric: metric, mde: mde, target: target)
        } catch {
            throw CLIError.usage(error.description, command: nil)
        }
        guard let plan = planned else {
            throw CLIError.data("no conversion names the metric `\(SafeOutput.text(metric))` in the window")
        }
        if arguments[CommonOptions.json] {
            context.output.line(try SafeOutput.json(PlanJSON(experiment: key, plan: plan)))
            return
        }
        context.output.line("\(key) · \(SafeOutput.text(metric)) (\(plan.type.rawValue)) · \(String(format: "%.1f", plan.days)) days of traffic · \(SafeOutput.text(DecisionText.planLine(plan)))")
        let rows = plan.rows.map { row in
            [row.name, ResultsFormat.count(row.subjects), ResultsFormat.number(row.subjectsPerDay),
             row.power.map { ResultsFormat.percent($0, digits: 1) } ?? "—",
             row.daysRemaining.map { $0 == 0 ? "reached" : String($0) } ?? (row.power == nil ? "—" : "over 365")]
        }
        SafeOutput.table(["VARIANT", "SUBJECTS", "PER DAY", "POWER NOW", "DAYS MORE"], rows).forEach(context.output.line)
        context.output.line(DecisionText.powerMeaning(plan.mde))
    }

    private static func draft(_ arguments: ParsedArguments, _ context: CommandContext, mde: Double, target: Double) throws {
        guard arguments[Self.dailySubjects] != nil, arguments[Self.baseline] != nil else {
            throw CLIError.usage("give EXP, or --daily-subjects N and --baseline RATE to plan a draft", command: nil)
        }
        let daily = try DecimalText.option(arguments, Self.dailySubjects, default: 0, "a positive number of subjects a day") { $0 > 0 && $0 < 1e15 }
        let baseline = try DecimalText.shareOption(arguments, Self.baseline, default: 0, "a conversion rate above 0 and below 1, as 4% or 0.04") { $0 > 0 && $0 < 1 }
        let variants = try DecimalText.option(arguments, Self.variants, default: 2, "a whole number of variants from 2 to 100") { $0 >= 2 && $0 <= 100 && $0 == $0.rounded() }
        let plan: PowerPlan.Draft
        do throws(PowerPlanError) {
            plan = try PowerPlan.draft(dailySubjects: daily, baseline: baseline, variants: Int(variants), mde: mde, target: target)
        } catch .pastCertainty(let baseline, let mde) {
            throw CLIError.usage(PowerPlanError.pastCertainty(baseline: baseline, mde: mde).description + " (--mde)", command: nil)
        } catch {
            throw CLIError.data(error.description)
        }
        if arguments[CommonOptions.json] {
            context.output.line(try SafeOutput.json(DraftPlanJSON(subjectsPerVariant: plan.subjectsPerVariant, days: plan.days)))
            return
        }
        context.output.line("\(ResultsFormat.count(plan.subjectsPerVariant)) subjects per variant for \(ResultsFormat.percent(target, digits: 0)) power at a \(DecisionText.effectWords(mde)) effect on a \(ResultsFormat.percent(baseline, digits: 2)) baseline: about \(plan.days) \(plan.days == 1 ? "day" : "days") at \(ResultsFormat.number(daily)) subjects a day over \(Int(variants)) variants")
    }
}


/// `plan EXP --json`: `{"experiment","metric","mde","power_target","variants":[{"name","subjects","subjects_per_day","power","days_remaining"}]}`.
struct PlanJSON: Encodable {
    let experiment: String
    let plan: PowerPlan

    private enum Keys: String, CodingKey {
        case experiment, metric, type, mde, powerTarget = "power_target", days, variants
        case name, subjects, subjectsPerDay = "subjects_per_day", power, daysRemaining = "days_remaining"
    }

    func encode(to encoder: any Encoder) throws {
        var root = encoder.container(keyedBy: Keys.self)
        try root.encode(experiment, forKey: .experiment)
        try root.encode(plan.metric, forKey: .metric)
        try root.encode(plan.type.rawValue, forKey: .type)
        try root.encode(plan.mde, forKey: .mde)
        try root.encode(plan.target, forKey: .powerTarget)
        try root.encode(plan.days, forKey: .days)
        var variants = root.nestedUnkeyedContainer(forKey: .variants)
        for row in plan.rows {
            var item = variants.nestedContainer(keyedBy: Keys.self)
            try item.encode(row.name, forKey: .name)
            try item.encode(row.subjects, forKey: .subjects)
            try item.encode(row.subjectsPerDay, forKey: .subjectsPerDay)
            try item.encode(row.power, forKey: .power)
            try item.encode(row.daysRemaining, forKey: .daysRemaining)
        }
    }
}

/// `plan --daily-subjects N --baseline RATE --json`: `{"subjects_per_variant","days"}`.
struct DraftPlanJSON: Encodable {
    let subjectsPerVariant: Int
    let days: Int

    enum CodingKeys: String, CodingKey { case subjectsPerVariant = "subjects_per_variant", days }
}
