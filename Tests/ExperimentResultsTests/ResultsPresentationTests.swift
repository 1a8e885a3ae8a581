import ExperimentResults
import Testing

/// The one presenter of a report: the cells both fronts lay out, worded once.
@Suite struct ResultsPresentationTests {
    static func report(_ metrics: [MetricTotals], multiple: Int = 0, engine: StatsEngine = .bayesian) -> ResultsReport {
        let window = ResultsWindow(from: 0, to: 86_400_000_000_000, weights: ["control": 5000, "green": 5000], weightsChangedInside: false)
        let analysed = metrics.first.map { $0.variants.reduce(0) { $0 + $1.subjects } } ?? 0
        let analysis = Analysis(experiment: "exp", variants: ["control", "green"], control: "control", window: window,
                                subjects: SubjectCounts(exposed: analysed + multiple, analysed: analysed, multipleVariants: multiple,
                                                        whitelisted: nil, unknownVariantRows: 0),
                                variantSubjects: metrics.first?.variants.map(\.subjects) ?? [0, 0], metrics: metrics)
        return ResultsReport(analysis, engine: engine)
    }

    static let buy = MetricTotals(name: "buy", type: .proportion, variants: [
        VariantTotals(subjects: 1000, sum: 100, sumSquares: 100), VariantTotals(subjects: 1000, sum: 150, sumSquares: 150),
    ])

    @Test func theControlRowLeavesTheComparisonBlankAndATreatmentHasEveryCell() {
        let shown = ResultsPresentation(Self.report([Self.buy]))
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

    @Test func theFrequentistEngineShowsTheP() {
        let shown = ResultsPresentation(Self.report([Self.buy], engine: .frequentist(sequential: true)))
        #expect(shown.engine == "frequentist, sequential")
        #expect(shown.metrics.first?.columns.last == "P-VALUE")
        #expect(shown.metrics.first?.rows.last?.evidence.contains(".") == true)
    }

    @Test func withoutAnEstimateTheIntervalCellSaysWhy() {
        let invalid = MetricTotals(name: "spend", type: .mean, variants: [
            VariantTotals(subjects: 10, sum: 50, sumSquares: 300), VariantTotals(subjects: 10, sum: 50, sumSquares: 1),
        ])
        let few = MetricTotals(name: "buy", type: .proportion, variants: [
            VariantTotals(subjects: 1, sum: 1, sumSquares: 1), VariantTotals(subjects: 10, sum: 5, sumSquares: 5),
        ])
        let shown = ResultsPresentation(Self.report([few, invalid]))
        let rows = shown.metrics.map { $0.rows.last }
        #expect(rows[0]?.lift == "—" && rows[0]?.evidence == "")
        #expect(rows[0]?.interval == "no estimate: the control has fewer than 2 subjects (control 1, treatment 10); no estimate yet")
        #expect(rows[1]?.interval.hasPrefix("no estimate: the treatment's totals are not valid: sum of squares 1") == true)
    }

    @Test func manySubjectsInSeveralVariantsIsABannerOnce() {
        let shown = ResultsPresentation(Self.report([Self.buy], multiple: 100))
        let banners = shown.warnings.filter(\.isBanner)
        #expect(banners.map(\.kind) == [.multipleExposures])
        #expect(banners.first?.text.hasPrefix("100 of 2100 subjects (4.8 %) saw more than one variant") == true)
        #expect(ResultsPresentation(Self.report([Self.buy], multiple: 9)).warnings.filter(\.isBanner).isEmpty)
    }
}
