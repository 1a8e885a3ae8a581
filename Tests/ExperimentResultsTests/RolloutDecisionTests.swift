import ExperimentCore
@testable import ExperimentResults
import Foundation
import Testing

/// The rule of `advance` (SPEC §14) on plain values: a plan at step 1 of 3 (control=90,green=10),
/// a day's hold, 2,000 subjects, and the current phase's totals made by hand.
@Suite struct RolloutDecisionTests {
    static let start = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z, the phase's start

    static func weights(_ green: Int) -> [NamedWeight] {
        [NamedWeight(name: "control", weight: Weight(buckets: 10_000 - green * 100)), NamedWeight(name: "green", weight: Weight(buckets: green * 100))]
    }

    static func byName(_ named: [NamedWeight]) -> [String: Weight] { Dictionary(uniqueKeysWithValues: named.map { ($0.name, $0.weight) }) }

    static func plan(_ greens: [Int] = [10, 25, 50], onGuardrail: RolloutPlan.Reaction = .rollback, onSRM: RolloutPlan.Reaction = .hold,
                     step: Int = 1, state: RolloutPlan.State = .active) -> RolloutPlan {
        var plan = RolloutPlan(steps: greens.map { byName(weights($0)) }, holdSeconds: 86_400, minSubjects: 2_000, onGuardrail: onGuardrail, onSRM: onSRM)
        (plan.step, plan.state, plan.startedFrom) = (step, state, byName(weights(0)))
        return plan
    }

    /// `checkout` running at `green` % under `plan`, with a goal `purchase` and the guardrail `refund` (lower is better).
    static func experiment(green: Int = 10, status: ExperimentStatus = .running, plan: RolloutPlan? = plan()) -> Experiment {
        let variants = weights(green).enumerated().map { index, named in
            Variant(name: named.name, weight: named.weight,
                    ranges: named.weight.buckets == 0 ? [] : [index == 0 ? BucketRange(0, named.weight.buckets) : BucketRange(10_000 - named.weight.buckets, 10_000)])
        }
        var experiment = Experiment(key: "checkout", type: .user, status: status, salt: "checkout", control: "control", winner: nil, description: "",
                                    revision: 3, createdAt: start, updatedAt: start, updatedBy: "t", variants: variants, whitelist: [:],
                                    metrics: ExperimentMetrics(goal: NamedMetric(metric: "purchase"), guardrails: [NamedMetric(metric: "refund", direction: .decrease)]))
        experiment.plan = plan
        return experiment
    }

    /// The phase's analysis under weights `greenBuckets` of green: `control`/`green` subjects, purchases 10 % each,
    /// refunds as given (default 1 % each; nil: no refund metric at all).
    static func evidence(control: Int, green: Int, refunds: (control: Int, green: Int)? = nil, noRefunds: Bool = false,
                         greenBuckets: Int = 1_000) throws -> Analysis {
        let window = ResultsWindow(from: ResultsWindow.nanos(start), to: ResultsWindow.nanos(start) + 200 * 3_600_000_000_000,
                                   weights: ["control": 10_000 - greenBuckets, "green": greenBuckets], weightsChangedInside: false)
        let refunds = noRefunds ? nil : refunds ?? (control / 100, green / 100)
        var metrics = [MetricTotals(name: "purchase", type: .proportion, variants: [
            VariantTotals(statistics: try .proportion(subjects: control, conversions: control / 10)),
            VariantTotals(statistics: try .proportion(subjects: green, conversions: green / 10)),
        ])]
        if let refunds {
            metrics.append(MetricTotals(name: "refund", type: .proportion, variants: [
                VariantTotals(statistics: try .proportion(subjects: control, conversions: refunds.control)),
                VariantTotals(statistics: try .proportion(subjects: green, conversions: refunds.green)),
            ]))
        }
        return Analysis(experiment: "checkout", variants: ["control", "green"], control: "control", window: window,
                        subjects: SubjectCounts(exposed: control + green, analysed: control + green, multipleVariants: 0, whitelisted: 0, unknownVariantRows: 0),
                        variantSubjects: [control, green], metrics: metrics)
    }

    static func hours(_ count: Double) -> Date { start.addingTimeInterval(count * 3_600) }

    @Test func aStepThatHeldWithEnoughSubjectsAndCleanEvidenceAdvancesToTheNextStep() throws {
        let decision = Rollout.decide(Self.experiment(plan: Self.plan()), evidence: try Self.evidence(control: 2_700, green: 300), now: Self.hours(25))
        #expect(decision.action == .advance && decision.step == 2 && decision.steps == 3)
        #expect(decision.weights == Self.weights(25))
        #expect(decision.reason.hasPrefix("held 1d 1h (hold 24h), 3,000 analysed subjects (at least 2,000), sample ratio ok (p = "))
        #expect(decision.reason.hasSuffix("guardrails ok"))
    }

    @Test func theLastStepFinishesThePlanAtOnce() throws {
        let decision = Rollout.decide(Self.experiment(green: 25, plan: Self.plan(step: 2)), evidence: try Self.evidence(control: 2_700, green: 300),
                                      now: Self.hours(25))
        #expect(decision.action == .done && decision.step == 3 && decision.weights == Self.weights(50))
    }

    @Test func beforeTheHoldTheStepHoldsAndSaysWhenTheNextAdvanceCanCome() throws {
        let decision = Rollout.decide(Self.experiment(plan: Self.plan()), evidence: try Self.evidence(control: 2_700, green: 300), now: Self.hours(3))
        #expect(decision.action == .hold && decision.step == 1 && decision.weights == Self.weights(10))
        #expect(decision.reason == "step 1 has held 3h (hold 24h); the next advance can come at 2026-01-02 00:00 UTC")
    }

    @Test func belowTheSubjectCountTheStepHolds() throws {
        let decision = Rollout.decide(Self.experiment(plan: Self.plan()), evidence: try Self.evidence(control: 1_350, green: 150), now: Self.hours(30))
        #expect(decision.action == .hold && decision.reason == "1,500 analysed subjects (at least 2,000)")
    }

    @Test func aSampleRatioMismatchHoldsByDefaultAndRollsBackWhenThePlanSaysSo() throws {
        let skewed = try Self.evidence(control: 2_700, green: 150)
        let held = Rollout.decide(Self.experiment(plan: Self.plan()), evidence: skewed, now: Self.hours(1))
        #expect(held.action == .hold && held.reason.hasPrefix("sample ratio MISMATCH (p < 0.0001)"))
        let rolled = Rollout.decide(Self.experiment(plan: Self.plan(onSRM: .rollback)), evidence: skewed, now: Self.hours(1))
        #expect(rolled.action == .rollback && rolled.step == 1 && rolled.weights == Self.weights(0))
        #expect(rolled.reason == "sample ratio MISMATCH (p < 0.0001)")
    }

    @Test func aFailingGuardrailRollsBackToTheStartingWeightsWithoutWaitingForTheHoldOrTheSubjects() throws {
        let harmful = try Self.evidence(control: 1_800, green: 200, refunds: (18, 40))
        let decision = Rollout.decide(Self.experiment(plan: Self.plan()), evidence: harmful, now: Self.hours(1))
        #expect(decision.action == .rollback && decision.weights == Self.weights(0))
        #expect(decision.reason.hasPrefix("guardrail refund FAILS for green (one-sided p = "))
        let holding = Rollout.decide(Self.experiment(plan: Self.plan(onGuardrail: .hold)), evidence: harmful, now: Self.hours(30))
        #expect(holding.action == .hold && holding.reason.contains("guardrail refund FAILS for green"))
    }

    @Test func theGuardrailGateUsesTheSequentialIntervalNotTheFixedOne() throws {
        // Refunds 1.0 % against 1.5 %: the fixed-horizon Welch test calls it harmful, the always-valid one does not (yet).
        let evidence = try Self.evidence(control: 5_000, green: 5_000, refunds: (50, 75), greenBuckets: 5_000)
        let fixed = ResultsReport(evidence, engine: .frequentist(sequential: false), named: Self.experiment().metrics)
        #expect(DecisionText.guardrailFailures(fixed, variant: nil).count == 1)
        let middle = Self.plan([10, 50, 60], step: 2)
        #expect(Rollout.decide(Self.experiment(green: 50, plan: middle), evidence: evidence, now: Self.hours(30)).action == .done)
    }

    @Test func aGuardrailWithoutDataHolds() throws {
        let decision = Rollout.decide(Self.experiment(plan: Self.plan()), evidence: try Self.evidence(control: 2_700, green: 300, noRefunds: true),
                                      now: Self.hours(30))
        #expect(decision.action == .hold && decision.reason == "guardrail refund: no data")
    }

    @Test func everyUnmetConditionIsNamedInOneReason() throws {
        let decision = Rollout.decide(Self.experiment(plan: Self.plan()), evidence: try Self.evidence(control: 90, green: 10, noRefunds: true), now: Self.hours(2))
        #expect(decision.action == .hold)
        #expect(decision.reason == "step 1 has held 2h (hold 24h); the next advance can come at 2026-01-02 00:00 UTC; "
            + "100 analysed subjects (at least 2,000); guardrail refund: no data")
    }

    @Test func weightsRampedOutsideThePlanHold() throws {
        let decision = Rollout.decide(Self.experiment(green: 20, plan: Self.plan()), evidence: try Self.evidence(control: 2_700, green: 300), now: Self.hours(30))
        #expect(decision.action == .hold && decision.reason.hasPrefix("the weights control=80,green=20 are not step 1's control=90,green=10"))
    }

    @Test func anExperimentOrPlanThatIsNotActiveGetsNoDecision() throws {
        let evidence = try Self.evidence(control: 2_700, green: 300)
        let draft = Rollout.decide(Self.experiment(status: .draft, plan: Self.plan()), evidence: evidence, now: Self.hours(30))
        #expect(draft.action == .none && draft.reason.contains("never starts"))
        #expect(Rollout.decide(Self.experiment(plan: Self.plan(state: .paused)), evidence: evidence, now: Self.hours(30)).action == .none)
        #expect(Rollout.decide(Self.experiment(plan: Self.plan(state: .done)), evidence: evidence, now: Self.hours(30)).action == .none)
        let none = Rollout.decide(Self.experiment(plan: nil), evidence: evidence, now: Self.hours(30))
        #expect(none.action == .none && none.step == 0 && none.steps == 0 && none.reason == "`checkout` has no ramp plan")
        let last = Rollout.decide(Self.experiment(green: 50, plan: Self.plan(step: 3)), evidence: evidence, now: Self.hours(30))
        #expect(last.action == .none && last.step == 3 && last.reason == "`checkout` is at the last step of its plan")
        #expect(Rollout.inactiveReason(Self.experiment(plan: Self.plan(step: 0))) == "no step of the plan of `checkout` has applied yet")
    }

    @Test func theDecisionNamesTheChangeThatCarriesItOut() throws {
        let advance = Rollout.decide(Self.experiment(), evidence: try Self.evidence(control: 2_700, green: 300), now: Self.hours(25))
        #expect(advance.change == .edit(experiment: "checkout", .advancePlan(reason: advance.reason)))
        let hold = Rollout.decide(Self.experiment(), evidence: try Self.evidence(control: 2_700, green: 300), now: Self.hours(2))
        #expect(hold.change == nil)
    }

    @Test func heldTimeIsWordedInItsTwoLargestUnits() {
        #expect(Rollout.durationWords(90_061) == "1d 1h" && Rollout.durationWords(1_800) == "30m" && Rollout.durationWords(0) == "0s")
    }
}
