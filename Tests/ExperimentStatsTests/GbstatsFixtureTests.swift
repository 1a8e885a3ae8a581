import Testing
@testable import ExperimentStats

/// A sample of the gbstats differential (Tests/stats/gbstats_diff.py) that runs without Python:
/// 40 cases per engine with gbstats 0.8's answers, to 1e-6 (lift and interval relative above 1,
/// probabilities absolute), "no estimate" exactly where gbstats gives none.
struct GbstatsFixtureTests {
    static func close(_ value: Double?, _ expected: Double?, relative: Bool) -> Bool {
        guard let value, let expected else { return value == nil && expected == nil }
        return abs(value - expected) <= 1e-6 * (relative ? max(1, abs(expected)) : 1)
    }

    @Test func matchesGbstats() throws {
        #expect(GbstatsFixture.rows.count == 120)
        for (index, row) in GbstatsFixture.rows.enumerated() {
            let control = try GroupStatistics(subjects: row.control.n, sum: row.control.sum, sumSquares: row.control.sumSquares)
            let treatment = try GroupStatistics(subjects: row.treatment.n, sum: row.treatment.sum, sumSquares: row.treatment.sumSquares)
            let result = Comparison.compare(control: control, treatment: treatment, kind: row.kind, engine: row.engine)
            let label: Comment = "row \(index): \(row.kind) \(row.engine)"
            #expect((result.note == nil) == (row.lift != nil), label)
            #expect(Self.close(result.lift, row.lift, relative: true), label)
            #expect(Self.close(result.interval?.lower, row.lower, relative: true), label)
            #expect(Self.close(result.interval?.upper, row.upper, relative: true), label)
            #expect(Self.close(result.chanceToWin, row.chanceToWin, relative: false), label)
            #expect(Self.close(result.pValue, row.pValue, relative: false), label)
        }
    }
}
