import ExperimentResults
import Testing

/// A plan refuses inputs it cannot plan with as errors, never a trap (SPEC §12 "Power and duration").
@Suite struct PowerPlanDraftTests {
    @Test func aDraftWithoutTrafficIsAnErrorNotATrap() throws {
        #expect(throws: PowerPlanError.noTraffic) { try PowerPlan.draft(dailySubjects: 0, baseline: 0.1, variants: 2) }
        #expect(throws: PowerPlanError.noTraffic) { try PowerPlan.draft(dailySubjects: -.infinity, baseline: 0.1, variants: 2) }
        #expect(throws: PowerPlanError.tooFewVariants(0)) { try PowerPlan.draft(dailySubjects: 100, baseline: 0.1, variants: 0) }
        #expect(throws: PowerPlanError.power(1e-300)) { try PowerPlan.draft(dailySubjects: 100, baseline: 0.1, variants: 2, target: 1e-300) }
        #expect(throws: PowerPlanError.effect(0)) { try PowerPlan.draft(dailySubjects: 100, baseline: 0.1, variants: 2, mde: 0) }
        #expect(throws: PowerPlanError.self) { try PowerPlan.draft(dailySubjects: 1e-300, baseline: 0.1, variants: 2) }
        let draft = try PowerPlan.draft(dailySubjects: 1_000, baseline: 0.1, variants: 2)
        #expect(draft.days == Int((Double(draft.subjectsPerVariant) / 500).rounded(.up)))
    }

    /// Negative, NaN and infinite inputs: each a typed error naming what to change.
    @Test func negativeNaNAndInfiniteInputsAreErrors() {
        #expect(throws: PowerPlanError.noTraffic) { try PowerPlan.draft(dailySubjects: -5, baseline: 0.1, variants: 2) }
        #expect(throws: PowerPlanError.noTraffic) { try PowerPlan.draft(dailySubjects: .nan, baseline: 0.1, variants: 2) }
        #expect(throws: PowerPlanError.noTraffic) { try PowerPlan.draft(dailySubjects: .infinity, baseline: 0.1, variants: 2) }
        #expect(throws: PowerPlanError.tooFewVariants(-3)) { try PowerPlan.draft(dailySubjects: 100, baseline: 0.1, variants: -3) }
        #expect(throws: PowerPlanError.self) { try PowerPlan.draft(dailySubjects: 100, baseline: .nan, variants: 2) }
        #expect(throws: PowerPlanError.self) { try PowerPlan.draft(dailySubjects: 100, baseline: 0.1, variants: 2, mde: .nan) }
        #expect(throws: PowerPlanError.self) { try PowerPlan.draft(dailySubjects: 100, baseline: 0.1, variants: 2, target: .nan) }
        #expect(throws: PowerPlanError.effect(-0.05)) { try PowerPlan.draft(dailySubjects: 100, baseline: 0.1, variants: 2, mde: -0.05) }
    }

    /// A plan from traffic checks its effect and power as a draft does.
    @Test func aPlanFromTrafficRefusesAnEffectOrPowerItCannotPlanWith() throws {
        let analysis = ResultsPresentationTests.report([try ResultsPresentationTests.buy()]).analysis
        #expect(throws: PowerPlanError.self) { try PowerPlan(analysis, metric: "buy", mde: .nan) }
        #expect(throws: PowerPlanError.effect(0)) { try PowerPlan(analysis, metric: "buy", mde: 0) }
        #expect(throws: PowerPlanError.power(1)) { try PowerPlan(analysis, metric: "buy", target: 1) }
        let plan = try #require(try PowerPlan(analysis, metric: "buy"))
        #expect(plan.rows.map(\.name) == ["green"])
        #expect(try PowerPlan(analysis, metric: "nope") == nil)
    }
}
