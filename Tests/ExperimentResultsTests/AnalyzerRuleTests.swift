@testable import ExperimentResults
import Testing

/// The per-subject rules of SPEC §8 on hand-made logs: each case changes the answer of the base logs.
@Suite struct AnalyzerRuleTests {
    typealias F = ResultsFixture

    /// a, b in control; c, d in green; a, c and d buy (inside the window, after their exposure).
    static let exposures = [F.exposure("a", "control", hours: 1), F.exposure("b", "control", hours: 2),
                            F.exposure("c", "green", hours: 1), F.exposure("d", "green", hours: 3)]
    static let conversions = [F.conversion("a", "buy", hours: 5), F.conversion("c", "buy", hours: 2), F.conversion("d", "buy", hours: 4)]

    private func buy(_ analysis: Analysis) -> [VariantTotals] { analysis.metrics.first { $0.name == "buy" }?.variants ?? [] }
    private func totals(_ n0: Int, _ s0: Double, _ n1: Int, _ s1: Double) throws -> [VariantTotals] {
        [VariantTotals(statistics: try .proportion(subjects: n0, sum: s0, sumSquares: s0)),
         VariantTotals(statistics: try .proportion(subjects: n1, sum: s1, sumSquares: s1))]
    }

    @Test func base() throws {
        let analysis = try F.analyze(Self.exposures, Self.conversions)
        #expect(try buy(analysis) == totals(2, 1, 2, 2))
        #expect(analysis.metrics.map(\.type) == [.proportion])
        #expect(analysis.subjects == SubjectCounts(exposed: 4, analysed: 4, multipleVariants: 0, whitelisted: 0, unknownVariantRows: 0))
        #expect(analysis.variantSubjects == [2, 2])
    }

    @Test func anEarlierDuplicateMovesTheFirstExposure() throws {
        let conversions = Self.conversions + [F.conversion("b", "buy", hours: 1.5)]
        #expect(try buy(try F.analyze(Self.exposures, conversions)) == totals(2, 1, 2, 2))
        let analysis = try F.analyze(Self.exposures + [F.exposure("b", "control", hours: 1), F.exposure("b", "control", hours: 9)], conversions)
        #expect(try buy(analysis) == totals(2, 2, 2, 2))
        #expect(analysis.subjects.exposed == 4)
    }

    @Test func aSubjectInTwoVariantsIsRemovedFromBoth() throws {
        let analysis = try F.analyze(Self.exposures + [F.exposure("a", "green", hours: 6)], Self.conversions)
        #expect(try buy(analysis) == totals(1, 0, 2, 2))
        #expect(analysis.subjects == SubjectCounts(exposed: 4, analysed: 3, multipleVariants: 1, whitelisted: 0, unknownVariantRows: 0))
    }

    @Test func whitelistedSubjectsAreRemoved() throws {
        let extra = [F.conversion("vip", "buy", hours: 2), F.conversion("e", "buy", hours: 2)]
        let plain = try F.analyze(Self.exposures + [F.exposure("e", "green", hours: 1)], Self.conversions + extra)
        #expect(try buy(plain) == totals(2, 1, 3, 3))
        let analysis = try F.analyze(Self.exposures + [F.exposure("vip", "green", hours: 1)], Self.conversions + extra)
        #expect(try buy(analysis) == totals(2, 1, 2, 2))
        #expect(analysis.subjects == SubjectCounts(exposed: 5, analysed: 4, multipleVariants: 0, whitelisted: 1, unknownVariantRows: 0))
    }

    @Test func unknownVariantRowsAreCountedAndIgnored() throws {
        let analysis = try F.analyze(Self.exposures + [F.exposure("e", "blue", hours: 1), F.exposure("a", "blue", hours: 1)],
                                     Self.conversions + [F.conversion("e", "buy", hours: 2)])
        #expect(try buy(analysis) == totals(2, 1, 2, 2))
        #expect(analysis.subjects == SubjectCounts(exposed: 4, analysed: 4, multipleVariants: 0, whitelisted: 0, unknownVariantRows: 2))
    }

    @Test func conversionsBeforeTheFirstExposureDoNotCount() throws {
        #expect(try buy(try F.analyze(Self.exposures, Self.conversions + [F.conversion("b", "buy", hours: 1.99)])) == totals(2, 1, 2, 2))
        #expect(try buy(try F.analyze(Self.exposures, Self.conversions + [F.conversion("b", "buy", hours: 2)])) == totals(2, 2, 2, 2))
    }

    @Test func rowsOutsideTheWindowAreIgnored() throws {
        let late = try F.analyze(Self.exposures + [F.exposure("e", "green", hours: 101)], Self.conversions + [F.conversion("e", "buy", hours: 102)])
        #expect(try buy(late) == totals(2, 1, 2, 2))
        #expect(late.subjects.exposed == 4)
        let conversionAfterEnd = try F.analyze(Self.exposures, [F.conversion("a", "buy", hours: 100.01), F.conversion("c", "buy", hours: 2), F.conversion("d", "buy", hours: 4)])
        #expect(try buy(conversionAfterEnd) == totals(2, 0, 2, 2))
        let early = try F.analyze([F.exposure("a", "control", hours: -1)] + Self.exposures.dropFirst(), Self.conversions)
        #expect(try buy(early) == totals(1, 0, 2, 2))
    }

    @Test func theConversionWindowCutsLateConversions() throws {
        #expect(try buy(try F.analyze(Self.exposures, Self.conversions, conversionWindowHours: 1)) == totals(2, 0, 2, 2))
        #expect(try buy(try F.analyze(Self.exposures, Self.conversions, conversionWindowHours: 4)) == totals(2, 1, 2, 2))
    }

    @Test func rowsOfOtherExperimentsAreIgnored() throws {
        let analysis = try F.analyze(Self.exposures + [F.exposure("e", "green", hours: 1, experiment: "other")], Self.conversions + [F.conversion("e", "buy", hours: 2)])
        #expect(try buy(analysis) == totals(2, 1, 2, 2))
    }

    @Test func valuesMakeAMeanSummedPerSubject() throws {
        let conversions = [F.conversion("a", "revenue", hours: 2, value: 10), F.conversion("a", "revenue", hours: 3, value: 2.5),
                           F.conversion("c", "revenue", hours: 2, value: 4), F.conversion("b", "revenue", hours: 1, value: 100)]
        let analysis = try F.analyze(Self.exposures, conversions)
        #expect(analysis.metrics.map(\.type) == [.mean])
        // Σ(x − mean)² from the second pass: 12.5 and 0 around 6.25, 4 and 0 around 2.
        #expect(try analysis.metrics.first?.variants == [
            VariantTotals(statistics: GroupStatistics(subjects: 2, sum: 12.5, sumSquares: 156.25, squaredDeviations: 78.125)),
            VariantTotals(statistics: GroupStatistics(subjects: 2, sum: 4, sumSquares: 16, squaredDeviations: 8)),
        ])
    }

    @Test func metricsWithoutConversionsHereAreLeftOutUnlessAskedFor() throws {
        let conversions = Self.conversions + [F.conversion("zz", "other_metric", hours: 2)]
        #expect(try F.analyze(Self.exposures, conversions).metrics.map(\.name) == ["buy"])
        let asked = try F.analyze(Self.exposures, conversions, metrics: ["other_metric", "buy", "nothing"])
        #expect(asked.metrics.map(\.name) == ["other_metric", "buy"])
        #expect(asked.missingMetrics == ["nothing"])
    }
}
