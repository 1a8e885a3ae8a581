import ExperimentCore
import Foundation

extension Rollout {
    /// The conditions of SPEC §14 read off one report: what rolls back, what holds, and the evidence words.
    struct Gate {
        var rollbackReasons: [String] = []
        var holdReasons: [String] = []
        /// `held 1d 1h (hold 1d), 2,412 analysed subjects (at least 2,000), sample ratio ok (p = 0.4123), guardrails ok`.
        var evidence: String

        init(report: ResultsReport, experiment: Experiment, plan: RolloutPlan, now: Date) {
            let failures = DecisionText.guardrailFailures(report, variant: nil)
            let ratio = report.sampleRatio
            let ratioWords = "sample ratio " + DecisionText.sampleRatioWords(ratio)
                + (ratio.status == .ok ? ratio.pValue.map { " (\(ResultsFormat.pClause($0)))" } ?? "" : "")
            if !failures.isEmpty {
                if plan.onGuardrail == .rollback {
                    rollbackReasons += failures
                } else {
                    holdReasons += failures.map { $0 + " (the plan holds on a failing guardrail)" }
                }
            }
            if ratio.status == .mismatch {
                if plan.onSRM == .rollback { rollbackReasons.append(ratioWords) } else { holdReasons.append(ratioWords) }
            }
            let stepWeights = plan.weights(ofStep: plan.step) ?? [:]
            let current = Dictionary(experiment.variants.map { ($0.name, $0.weight) }, uniquingKeysWith: { first, _ in first })
            if current.filter({ $0.value.buckets > 0 }) != stepWeights.filter({ $0.value.buckets > 0 }) {
                let order = experiment.variants.map(\.name)
                holdReasons.append("the weights \(experiment.weightSummary) are not step \(plan.step)'s \(RolloutPlan.weightsText(stepWeights, order: order)) "
                                   + "(ramped outside the plan: ramp back to the step, or set the plan again)")
            }
            // The step started with the phase: its ramp (SPEC §8's window starts there).
            let started = Date(timeIntervalSince1970: TimeInterval(report.analysis.window.from / 1_000_000_000))
            let held = max(0, Int(now.timeIntervalSince(started).rounded(.down)))
            let heldWords = "held \(Rollout.durationWords(held)) (hold \(RolloutPlan.durationText(plan.holdSeconds)))"
            if held < plan.holdSeconds {
                let ready = plan.nextAdvance(stepStartedAt: started)
                holdReasons.append("step \(plan.step) has \(heldWords); the next advance can come at \(TimeLabel.utcMinutes(ready))")
            }
            let subjects = report.analysis.subjects.analysed
            let subjectWords = "\(ResultsFormat.count(subjects)) analysed subjects (at least \(ResultsFormat.count(plan.minSubjects)))"
            if subjects < plan.minSubjects { holdReasons.append(subjectWords) }
            if ratio.status == .notEnoughTraffic { holdReasons.append(ratioWords) }
            holdReasons += DecisionText.guardrailsWithoutData(report, variant: nil)
            let guardrails = report.named.guardrails.isEmpty ? "no guardrails named" : "guardrails ok"
            evidence = [heldWords, subjectWords, ratioWords, guardrails].joined(separator: ", ")
        }
    }

    /// `1d 2h`, `3h 20m`, `45m`, `30s`: a duration in its two largest units.
    package static func durationWords(_ seconds: Int) -> String {
        let units = [(86_400, "d"), (3_600, "h"), (60, "m"), (1, "s")]
        var rest = max(0, seconds)
        var parts: [String] = []
        for (size, name) in units where rest >= size && parts.count < 2 {
            parts.append("\(rest / size)\(name)")
            rest %= size
        }
        return parts.isEmpty ? "0s" : parts.joined(separator: " ")
    }
}
