import ExperimentCore
import ExperimentEditing

/// What the editor's fields would do: the typed weights, their sum, why they cannot apply, and the plan.
struct RampPreview: Equatable {
    /// Each field's weight, nil when its text is not a weight.
    let weights: [Weight?]
    /// The sum of the readable weights.
    let total: Weight
    /// Why the weights cannot be applied (first reason), or nil.
    let problem: String?
    /// The minimal-move plan from the core, when the weights can apply.
    let plan: RampPlan?

    /// Evaluates `editor` against `experiment` as the store has it now (nil when it is gone).
    init(_ editor: RampEditor, experiment: Experiment?) {
        let weights = editor.fields.map { try? Weight.parse(percent: $0.text).get() }
        let total = Weight(buckets: weights.reduce(0) { $0 + ($1?.buckets ?? 0) })
        self.weights = weights
        self.total = total
        var problem: String?
        var plan: RampPlan?
        if let (index, field) = editor.fields.enumerated().first(where: { weights[$0.offset] == nil }) {
            problem = Self.fieldProblem(name: editor.variants[index], text: field.text)
        } else if total.buckets > Weight.bucketCount {
            let over = Weight(buckets: total.buckets - Weight.bucketCount)
            problem = "the weights add up to \(total) %, \(over) % over 100 %; lower a weight"
        } else if let experiment {
            do {
                plan = try experiment.rampPlan(to: Self.named(editor.variants, weights))
            } catch {
                problem = error.message
            }
        } else {
            problem = ExperimentError.unknownExperiment(editor.experimentKey).message
        }
        self.problem = problem
        self.plan = plan
    }

    /// The unallocated share after the ramp (nil when the weights are over 100 % or unreadable).
    var unallocated: Weight? {
        guard !weights.contains(nil), total.buckets <= Weight.bucketCount else { return nil }
        return Weight(buckets: Weight.bucketCount - total.buckets)
    }

    /// The typed weights by variant name, for the change.
    func named(_ editor: RampEditor) -> [String: Weight] { Self.named(editor.variants, weights) }

    private static func named(_ names: [String], _ weights: [Weight?]) -> [String: Weight] {
        Dictionary(zip(names, weights.map { $0 ?? .zero }), uniquingKeysWith: { _, last in last })
    }

    /// Whether the typed weights equal the ones the editor opened with.
    func isUnchanged(_ editor: RampEditor) -> Bool { weights == editor.before.map(Optional.some) }

    /// `20 % of subjects switch variant (2000 of 10000 buckets)`.
    static func movedText(_ plan: RampPlan) -> String {
        "\(Experiment.percentText(plan.movedShare)) of subjects switch variant (\(plan.movedBuckets) of \(Weight.bucketCount) buckets)"
    }

    private static func fieldProblem(name: String, text: String) -> String {
        guard !text.isEmpty else { return "`\(name)` has no weight; type a percentage from 0 to 100" }
        guard case .failure(let error) = Weight.parse(percent: text) else { return "`\(name)` has no readable weight" }
        return "`\(name)`: " + ExperimentError.invalidWeight(text: text, reason: error.reason).message
    }
}
