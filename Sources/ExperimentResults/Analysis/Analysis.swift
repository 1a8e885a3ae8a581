import ExperimentStats

/// A variant's totals for one metric: its sufficient statistics, checked once where they are made
/// (the analyzer from the raw logs, the summary reader from a `--summary` row), and with CUPED its covariate sums.
package struct VariantTotals: Equatable, Sendable {
    /// Analysed subjects, Σ value, Σ value², and from raw logs Σ (value − mean)² (a second pass: the
    /// variance from it is exact whatever the values' offset, where `Σx² − (Σx)²/n` cancels).
    package var statistics: GroupStatistics
    /// With CUPED: the same subjects' pre-exposure covariate sums; nil without.
    package var covariate: CovariateTotals?

    package init(statistics: GroupStatistics, covariate: CovariateTotals? = nil) {
        self.statistics = statistics
        self.covariate = covariate
    }
}

/// A variant's covariate statistics for CUPED (SPEC §12): Σ X, Σ X² and Σ X·Y over its analysed subjects.
package struct CovariateTotals: Equatable, Sendable {
    package var sum: Double
    package var sumSquares: Double
    package var crossSum: Double

    package init(sum: Double, sumSquares: Double, crossSum: Double) {
        self.sum = sum
        self.sumSquares = sumSquares
        self.crossSum = crossSum
    }
}

extension CovariateTotals {
    /// The covariate sums with the outcome they go with, checked: refused (naming the field) when no
    /// sample has them — a negative Σx², a variance below zero, a cross sum past Cauchy–Schwarz.
    package static func group(_ covariate: CovariateTotals, outcome: GroupStatistics) throws(StatisticsError) -> CovariateGroup {
        let statistics: GroupStatistics
        do throws(StatisticsError) {
            statistics = try GroupStatistics(subjects: outcome.subjects, sum: covariate.sum, sumSquares: covariate.sumSquares)
        } catch {
            let field: StatisticsError.Field? = error.field == .sumSquares ? .covariateSumSquares : error.field == .sum ? .covariateSum : error.field
            throw StatisticsError("the covariate's " + error.message, field: field)
        }
        return try CovariateGroup(outcome: outcome, covariate: statistics, crossSum: covariate.crossSum)
    }
}

/// One metric's totals, a `VariantTotals` per variant of the experiment (in the experiment's order).
package struct MetricTotals: Equatable, Sendable {
    package var name: String
    package var type: MetricType
    package var variants: [VariantTotals]

    package init(name: String, type: MetricType, variants: [VariantTotals]) {
        self.name = name
        self.type = type
        self.variants = variants
    }
}

/// Who was counted and who was set aside; nil where the input cannot tell (a `--summary` file).
package struct SubjectCounts: Equatable, Sendable {
    /// Distinct subjects with an exposure to a known variant inside the window.
    package var exposed: Int?
    /// Subjects left after the removals below.
    package var analysed: Int
    /// Subjects seen in more than one variant, removed from all.
    package var multipleVariants: Int?
    /// Whitelisted subjects removed (they were not bucketed).
    package var whitelisted: Int?
    /// Exposure rows naming a variant the experiment does not have.
    package var unknownVariantRows: Int?

    package init(exposed: Int?, analysed: Int, multipleVariants: Int?, whitelisted: Int?, unknownVariantRows: Int?) {
        self.exposed = exposed
        self.analysed = analysed
        self.multipleVariants = multipleVariants
        self.whitelisted = whitelisted
        self.unknownVariantRows = unknownVariantRows
    }
}

/// What the logs say about one experiment, before any statistics: counts and per-variant totals.
package struct Analysis: Equatable, Sendable {
    package var experiment: String
    /// The experiment's variant names in order, and which one is the control.
    package var variants: [String]
    package var control: String
    package var window: ResultsWindow
    package var subjects: SubjectCounts
    /// Analysed subjects per variant (the sample-ratio check's observed counts).
    package var variantSubjects: [Int]
    package var metrics: [MetricTotals]
    /// Metrics asked for with `--metric` that no conversion row names.
    package var missingMetrics: [String]
    /// Rows read from both logs.
    package var rowsRead: Int
    /// What the reading set aside and the reader should know (a partial last line still being written).
    package var readNotes: [String] = []
    /// The latest exposure inside the window (nanoseconds); nil without exposures or from a summary.
    package var lastExposure: Int64?
    /// With CUPED from the logs: the lookback before each first exposure (nanoseconds); nil otherwise.
    package var lookback: Int64? = nil

    package init(experiment: String, variants: [String], control: String, window: ResultsWindow, subjects: SubjectCounts,
                variantSubjects: [Int], metrics: [MetricTotals], missingMetrics: [String] = [], rowsRead: Int = 0, lastExposure: Int64? = nil) {
        self.experiment = experiment
        self.variants = variants
        self.control = control
        self.window = window
        self.subjects = subjects
        self.variantSubjects = variantSubjects
        self.metrics = metrics
        self.missingMetrics = missingMetrics
        self.rowsRead = rowsRead
        self.lastExposure = lastExposure
    }
}
