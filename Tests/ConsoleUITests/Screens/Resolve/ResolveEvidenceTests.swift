import ExperimentResults
import Testing
@testable import ConsoleUI

/// The resolve form's evidence greens a variant by the verdict's rule: better on the metric shown,
/// which way is better included (a lower-is-better metric's significant rise is not good news).
@Suite struct ResolveEvidenceTests {
    @Test func frequentistEvidenceFollowsTheMetricsDirection() {
        #expect(ResolveEvidence.isBetter(lift: 0.1, chanceToWin: nil, pValue: 0.01, direction: .increase))
        #expect(!ResolveEvidence.isBetter(lift: -0.1, chanceToWin: nil, pValue: 0.01, direction: .increase))
        #expect(ResolveEvidence.isBetter(lift: -0.1, chanceToWin: nil, pValue: 0.01, direction: .decrease))
        #expect(!ResolveEvidence.isBetter(lift: 0.1, chanceToWin: nil, pValue: 0.01, direction: .decrease))
        #expect(!ResolveEvidence.isBetter(lift: 0.1, chanceToWin: nil, pValue: 0.2, direction: .increase), "not significant")
    }

    @Test func bayesianEvidenceReadsTheChanceOfMovingTheBetterWay() {
        #expect(ResolveEvidence.isBetter(lift: -0.1, chanceToWin: 0.96, pValue: nil, direction: .decrease))
        #expect(!ResolveEvidence.isBetter(lift: 0.1, chanceToWin: 0.9, pValue: nil, direction: .increase))
    }
}
