import ExperimentResults
import Testing

/// The one presenter of a report: the cells both fronts lay out, worded once.
@Suite struct ResultsPresentationTests {
    static func report(_ metrics: [MetricTotals], multiple: Int = 0, engine: StatsEngine = .bayesian) -> ResultsReport {
        let window = ResultsWindow(from: 0, to: 86_400_000_000_000, weights: ["control": 5000, "green": 5000], weightsChangedInside: false)
        let analysed = metrics.first.map { $0.variants.reduce(0) { $0 + $1.statistics.subjects } } ?? 0
        let analysis = Analysis(experiment: "exp", variants: ["control", "green"], control: "control", window: window,
                                subjects: SubjectCounts(exposed: analysed + multiple, analysed: analysed, multipleVariants: multiple,
                                                        whitelisted: nil, unknownVariantRows: 0),
                                variantSubjects: metrics.first?.variants.map(\.statistics.subjects) ?? [0, 0], metrics: metrics)
        return ResultsReport(analysis, engine: engine)
    }

    /// A proportion's totals, `conversions` of `subjects`, checked as the readers check them.
    static func converted(_ subjects: Int, _ conversions: Int) throws -> VariantTotals {
        VariantTotals(statistics: try .proportion(subjects: subjects, conversions: conversions))
    }

    static func buy() throws -> MetricTotals {
        MetricTotals(name: "buy", type: .proportion, variants: [try converted(1000, 100), try converted(1000, 150)])
    }

    @Test func theControlRowLeavesTheComparisonBlankAndATreatmentHasEveryCell() throws {
        let shown = ResultsPresentation(Self.report([try Self.buy()]))
        let metric = try? #require(shown.metrics.first)
        #expect(metric?.title == "buy (proportion)")
        #expect(metric?.columns == ["VARIANT", "SUBJECTS", "CONVERTED", "RATE", "LIFT", "95 % INTERVAL", "CHANCE TO WIN"])
        let control = metric?.rows.first, green = metric?.rows.last
        #expect(control?.isControl == true && control?.lift == "" && control?.interval == "" && control?.evidence == "")
        #expect(control?.subjects == "1,000" && control?.total == "100" && control?.mean == "10.00 %")
        #expect(green?.lift == "+50.0 %" && green?.interval.hasPrefix("[+") == true && green?.evidence == "99.7 %")
        #expect(shown.subjects == ["2,000 exposed", "2,000 analysed", "0 in several variants (removed)"])
        #expect(shown.sampleRatio == "ok (p = 1.0000)" && shown.split == "control 50.0 % of 50.0 %, green 50.0 % of 50.0 %")
        #expect(shown.engine == "Bayesian" && shown.headline == nil && shown.noMetrics == nil)
    }

    @Test func theFrequentistEngineShowsTheP() throws {
        let shown = ResultsPresentation(Self.report([try Self.buy()], engine: .frequentist(sequential: true)))
        #expect(shown.engine == "frequentist, sequential")
        #expect(shown.metrics.first?.columns.last == "P-VALUE")
        #expect(shown.metrics.first?.rows.last?.evidence.contains(".") == true)
    }

    @Test func withoutAnEstimateTheIntervalCellSaysWhy() throws {
        let few = MetricTotals(name: "buy", type: .proportion, variants: [try Self.converted(1, 1), try Self.converted(10, 5)])
        let shown = ResultsPresentation(Self.report([few]))
        let row = shown.metrics.first?.rows.last
        #expect(row?.lift == "—" && row?.evidence == "")
        #expect(row?.interval == "no estimate: the control has fewer than 2 subjects (control 1, treatment 10); no estimate yet")
    }

    @Test func totalsNoSampleCanHaveAreRefusedWhenMade() {
        // A sum of squares below sum²/subjects: refused by the one check, so no report ever holds it.
        #expect(throws: (any Error).self) { try GroupStatistics(subjects: 10, sum: 50, sumSquares: 1) }
    }

    @Test func manySubjectsInSeveralVariantsIsABannerOnce() throws {
        let shown = ResultsPresentation(Self.report([try Self.buy()], multiple: 100))
        let banners = shown.warnings.filter(\.isBanner)
        #expect(banners.map(\.kind) == [.multipleExposures])
        #expect(banners.first?.text.hasPrefix("100 of 2100 subjects (4.8 %) saw more than one variant") == true)
        #expect(ResultsPresentation(Self.report([try Self.buy()], multiple: 9)).warnings.filter(\.isBanner).isEmpty)
    }
}
