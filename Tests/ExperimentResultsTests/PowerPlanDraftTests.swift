import ExperimentResults
import Testing

/// A draft plan refuses inputs it cannot plan with as errors, never a trap (SPEC §12 "Power and duration").
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
}
