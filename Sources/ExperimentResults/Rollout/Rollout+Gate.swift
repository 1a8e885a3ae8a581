import ExperimentCore
import Foundation

extension Rollout {
    /// The conditions of SPEC §14 read off one report: what rolls back, what holds, and the evidence words.
    struct Gate {
        var rollbackReasons: [String] = []
        var holdReasons: [String] = []
        /// `held 1d 1h (hold 24h), 2,412 analysed subjects (at least 2,000), sample ratio ok (p = 0.4123), guardrails ok`.
        var evidence: String

        init(report: ResultsReport, experiment: Experiment, plan: Plan, now: Date) {
            let failures = DecisionText.guardrailFailures(report, variant: nil)
            let withoutData = DecisionText.guardrailsWithoutData(report, variant: nil)
            let ratio = report.sampleRatio
            let ratioWords = "sample ratio " + DecisionText.sampleRatioWords(ratio)
                + (ratio.status == .ok ? ratio.pValue.map { " (\(ResultsFormat.pClause($0)))" } ?? "" : "")
            if !failures.isEmpty {
                if plan.onGuardrail == .rollback { rollbackReasons += failures } else { holdReasons += failures.map { $0 + " (the plan holds on a failing guardrail)" } }
            }
            if ratio.status == .mismatch {
                if plan.onSampleRatio == .rollback { rollbackReasons.append(ratioWords) } else { holdReasons.append(ratioWords) }
            }
            let stepWeights = plan.steps[plan.step - 1]
            if !Rollout.sameWeights(experiment.namedWeights, stepWeights) {
                holdReasons.append("the weights \(experiment.weightSummary) are not step \(plan.step)'s \(HistoryText.weightsText(stepWeights)) "
                                   + "(ramped outside the plan: ramp back to the step, or set the plan again)")
            }
            let window = report.analysis.window
            let held = Rollout.servedSeconds(window, now: now)
            let heldWords = "held \(Rollout.durationWords(held)) (hold \(Rollout.durationWords(plan.holdSeconds)))"
            if held < plan.holdSeconds {
                let ready = now.addingTimeInterval(TimeInterval(plan.holdSeconds - held))
                holdReasons.append("step \(plan.step) has \(heldWords); the next advance can come at \(TimeLabel.utcMinutes(ready))")
            }
            let subjects = report.analysis.subjects.analysed
            let subjectWords = "\(ResultsFormat.count(subjects)) analysed subjects (at least \(ResultsFormat.count(plan.minSubjects)))"
            if subjects < plan.minSubjects { holdReasons.append(subjectWords) }
            if ratio.status == .notEnoughTraffic { holdReasons.append(ratioWords) }
            holdReasons += withoutData
            let guardrails = report.named.guardrails.isEmpty ? "no guardrails named" : "guardrails ok"
            evidence = [heldWords, subjectWords, ratioWords, guardrails].joined(separator: ", ")
        }
    }

    /// The whole seconds from the phase's start to `now` that the experiment was not paused (a
    /// paused experiment serves the control, so its step is not being tried).
    static func servedSeconds(_ window: ResultsWindow, now: Date) -> Int {
        let end = ResultsWindow.nanos(now)
        guard end > window.from else { return 0 }
        var served = end - window.from
        for span in window.paused {
            let overlap = min(span.upperBound, end) - max(span.lowerBound, window.from)
            if overlap > 0 { served -= overlap }
        }
        return Int(served / 1_000_000_000)
    }

    /// `1d 2h`, `3h 20m`, `45m`, `30s`: a duration in its two largest units.
    public static func durationWords(_ seconds: Int) -> String {
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
