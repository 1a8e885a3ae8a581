import Foundation

/// A ramp plan (SPEC §14): the steps a guarded rollout ramps through, how long each holds, what
/// stops it, and where it stands; stored in its experiment, never exported.
public struct RolloutPlan: Hashable, Sendable {
    /// Where a plan stands.
    public enum State: String, Hashable, Sendable, CaseIterable {
        case active, paused, done
        case rolledBack = "rolled_back"
    }

    /// What a plan does on a failing guardrail or a sample-ratio mismatch.
    public enum Reaction: String, Hashable, Sendable, CaseIterable {
        case rollback, hold
    }

    /// The last decision `advance` recorded: when, which (`advance`, `rollback`, …) and why.
    public struct Decision: Hashable, Sendable {
        public var at: Date
        public var action: String
        public var reason: String

        public init(at: Date, action: String, reason: String) {
            self.at = at
            self.action = action
            self.reason = reason
        }
    }

    /// The default least time a step stays: 24 hours.
    public static let defaultHoldSeconds = 86_400
    /// The default analysed subjects a step needs.
    public static let defaultMinSubjects = 1_000
    /// The most steps a plan may have.
    public static let maxSteps = 100

    /// Each step's full weights, by variant name; a variant a step does not name (one added after the plan) gets 0 %.
    public var steps: [[String: Weight]]
    public var holdSeconds: Int
    public var minSubjects: Int
    public var onGuardrail: Reaction
    public var onSRM: Reaction
    /// The step the experiment serves, 1-based; 0 while no step has applied yet (a draft's plan).
    public var step: Int
    public var state: State
    public var lastDecision: Decision?
    /// The weights before the first step applied (a rollback's target); nil until it applies.
    public var startedFrom: [String: Weight]?
    /// Fields a newer abconsole wrote that this one does not know, by name: kept (SPEC §11 rule 7).
    public var unknownFields: [String: JSONValue] = [:]

    /// A new plan, no step applied yet.
    public init(steps: [[String: Weight]], holdSeconds: Int = RolloutPlan.defaultHoldSeconds,
                minSubjects: Int = RolloutPlan.defaultMinSubjects, onGuardrail: Reaction = .rollback, onSRM: Reaction = .hold) {
        self.steps = steps
        self.holdSeconds = holdSeconds
        self.minSubjects = minSubjects
        self.onGuardrail = onGuardrail
        self.onSRM = onSRM
        self.step = 0
        self.state = .active
        self.lastDecision = nil
        self.startedFrom = nil
    }

    /// The weights of 1-based step `number`, nil outside the plan.
    public func weights(ofStep number: Int) -> [String: Weight]? {
        steps.indices.contains(number - 1) ? steps[number - 1] : nil
    }

    /// Whether the plan has reached its last step.
    public var isAtLastStep: Bool { step >= steps.count }

    /// The earliest time `advance` may move on from the current step: the step's start plus the hold.
    public func nextAdvance(stepStartedAt start: Date) -> Date { start.addingTimeInterval(TimeInterval(holdSeconds)) }

    /// Weights in variant order as `name=pct` pairs: `control=90,green=10`.
    public static func weightsText(_ weights: [String: Weight], order: [String]) -> String {
        let named = order.compactMap { name in weights[name].map { NamedWeight(name: name, weight: $0) } }
        let others = weights.keys.filter { !order.contains($0) }.sorted().map { NamedWeight(name: $0, weight: weights[$0] ?? .zero) }
        return HistoryText.weightsText(named + others)
    }

    /// `24h`, `30m`, `2d`, `90s`: a duration in seconds in its largest whole unit, days from two on.
    public static func durationText(_ seconds: Int) -> String {
        if seconds > 0, seconds % 86_400 == 0, seconds >= 172_800 { return "\(seconds / 86_400)d" }
        for (unit, size) in [("h", 3_600), ("m", 60)] where seconds > 0 && seconds % size == 0 { return "\(seconds / size)\(unit)" }
        return "\(seconds)s"
    }

    /// `30m`, `24h`, `2d`, `45s` (or plain seconds) as seconds; nil when not a positive whole duration.
    public static func parseDuration(_ text: String) -> Int? {
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400]
        var digits = Substring(text), size = 1
        if let last = text.last, let unit = units[last] { digits = text.dropLast(); size = unit }
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }), digits.count <= 9,
              let value = Int(digits), value > 0 else { return nil }
        return value * size
    }

    /// The plan in the history's words: `steps control=90,green=10 → control=50,green=50; hold 24h; min 1000 subjects; guardrail rollback; srm hold`.
    public func summary(order: [String]) -> String {
        let stepsText = steps.map { Self.weightsText($0, order: order) }.joined(separator: " → ")
        return "steps \(stepsText); hold \(Self.durationText(holdSeconds)); min \(minSubjects) subjects; "
            + "guardrail \(onGuardrail.rawValue); srm \(onSRM.rawValue)"
    }

    /// Every rule the plan breaks for an experiment with `variants` (SPEC §3, §14), as paths under `.plan` and messages.
    public func problems(variants: [String]) -> [(path: String, message: String)] {
        var problems: [(path: String, message: String)] = []
        if steps.isEmpty { problems.append((".steps", "a plan needs at least one step")) }
        if steps.count > Self.maxSteps { problems.append((".steps", "a plan has at most \(Self.maxSteps) steps")) }
        for (index, weights) in steps.enumerated() {
            let path = ".steps[\(index)].weights"
            for name in weights.keys.sorted() where !variants.contains(name) {
                problems.append((path, "step \(index + 1) names `\(name)`, which is not one of the variants (\(variants.map { "`\($0)`" }.joined(separator: ", ")))"))
            }
            let total = weights.values.reduce(0) { $0 + $1.buckets }
            if total > Weight.bucketCount { problems.append((path, "step \(index + 1) adds up to \(Weight(buckets: total)) %; a step may add up to 100 % at most")) }
            if index > 0, weights == steps[index - 1] { problems.append((path, "step \(index + 1) is equal to the step before it; each step must change the weights")) }
        }
        if holdSeconds <= 0 { problems.append((".hold_seconds", "the hold must be positive")) }
        if minSubjects < 0 { problems.append((".min_subjects", "the subject count a step needs must be 0 or more")) }
        if !(0...steps.count).contains(step) { problems.append((".step", "must be 0 to \(steps.count), the number of steps")) }
        if let startedFrom {
            for name in startedFrom.keys.sorted() where !variants.contains(name) {
                problems.append((".started_from", "names `\(name)`, which is not one of the variants"))
            }
            if startedFrom.values.reduce(0, { $0 + $1.buckets }) > Weight.bucketCount {
                problems.append((".started_from", "adds up to more than 100 %"))
            }
        } else if step > 0 {
            problems.append((".started_from", "a plan whose first step applied keeps the weights it started from"))
        }
        return problems
    }
}
