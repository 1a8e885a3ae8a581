import ExperimentCore
import ExperimentResults
import ExperimentStats

/// Reads a pre-aggregated `--summary` CSV (`metric,type,variant,subjects,sum,sum_squares`) into an analysis.
///
/// The per-subject rules were applied by whoever aggregated (docs/results.md gives the SQL), so the
/// exposed, multiple-variant, whitelisted and unknown-variant counts are unknown (null). A variant
/// missing from a metric has no subjects; a variant the experiment does not have, a metric given
/// twice for one variant, a metric with two types, numbers no sample can have (10.5 conversions,
/// more conversions than subjects, a sum of squares below sum²/subjects; with `--cuped`, covariate
/// sums no sample has: Σx² < 0, Σx² < (Σx)²/n, a cross sum past Cauchy–Schwarz) and subject counts whose
/// total over the variants passes the largest integer are refused, naming the line and field.
package enum SummaryReader {
    static let fields = ["metric", "type", "variant", "subjects", "sum", "sum_squares", "covariate_sum", "covariate_sum_squares", "cross_sum"]
    /// The most subjects a row may give: counts are read as numbers, exact up to 2^53.
    static let maxSubjects = 1 << 53

    /// With `cuped`, the optional columns `covariate_sum,covariate_sum_squares,cross_sum` (SPEC §12) are required on every row.
    package static func read(path: String, experiment: Experiment, window: ResultsWindow, metrics wanted: [String] = [],
                            cuped: Bool = false) throws(EventError) -> Analysis {
        guard EventFormat.of(path: path) == .csv else { throw .notCSV(file: path) }
        let log = try EventLog(path: path, fields: fields, required: [Bool](repeating: true, count: 6) + [Bool](repeating: cuped, count: 3))
        let values = FieldValues(path: path)
        let names = experiment.variants.map(\.name)
        var order: [String] = []
        var totals: [String: (type: MetricType, variants: [VariantTotals?])] = [:]
        // The most subjects any metric gives each variant; their total must be a number.
        var largest = [Int](repeating: 0, count: names.count)
        try log.forEachRow(progress: nil) { (row, line) throws(EventError) in
            let metric = String(decoding: try values.text(row[0], line: line, field: "metric"), as: UTF8.self)
            let typeText = String(decoding: try values.text(row[1], line: line, field: "type"), as: UTF8.self)
            guard let type = MetricType(rawValue: typeText) else {
                throw EventError.malformed(file: path, line: line, field: "type", reason: "expected proportion or mean, not `\(typeText)`")
            }
            let variant = String(decoding: try values.text(row[2], line: line, field: "variant"), as: UTF8.self)
            guard let index = names.firstIndex(of: variant) else {
                throw EventError.malformed(file: path, line: line, field: "variant", reason: "`\(experiment.key)` has no variant `\(variant)` (it has \(names.joined(separator: ", ")))")
            }
            guard let subjects = try values.number(row[3], line: line, field: "subjects", quotedAllowed: true),
                  subjects >= 0, subjects == subjects.rounded(), let count = Int(exactly: subjects) else {
                throw EventError.malformed(file: path, line: line, field: "subjects", reason: "expected a whole number of subjects")
            }
            guard count <= Self.maxSubjects else {
                throw EventError.malformed(file: path, line: line, field: "subjects", reason: "more than 2^53 subjects cannot be counted exactly")
            }
            guard let sum = try values.number(row[4], line: line, field: "sum", quotedAllowed: true) else {
                throw EventError.malformed(file: path, line: line, field: "sum", reason: "missing")
            }
            guard let squares = try values.number(row[5], line: line, field: "sum_squares", quotedAllowed: true) else {
                throw EventError.malformed(file: path, line: line, field: "sum_squares", reason: "missing")
            }
            let statistics: GroupStatistics
            do throws(StatisticsError) {
                statistics = try type == .proportion ? GroupStatistics.proportion(subjects: count, sum: sum, sumSquares: squares)
                    : GroupStatistics.mean(subjects: count, sum: sum, sumSquares: squares)
            } catch {
                throw EventError.malformed(file: path, line: line, field: error.field?.rawValue, reason: error.message)
            }
            largest[index] = max(largest[index], count)
            guard case (_, false) = Self.total(largest) else {
                throw EventError.malformed(file: path, line: line, field: "subjects",
                                           reason: "the subjects of all variants add up past the largest count (\(Int.max))")
            }
            var entry = totals[metric] ?? (type, [VariantTotals?](repeating: nil, count: names.count))
            if totals[metric] == nil { order.append(metric) }
            guard entry.type == type else {
                throw EventError.malformed(file: path, line: line, field: "type", reason: "metric `\(metric)` was \(entry.type.rawValue) on an earlier row")
            }
            guard entry.variants[index] == nil else {
                throw EventError.malformed(file: path, line: line, field: "variant", reason: "a second row for metric `\(metric)`, variant `\(variant)`")
            }
            var covariate: CovariateTotals?
            if cuped {
                var numbers: [Double] = []
                for column in 6..<9 {
                    guard let number = try values.number(row[column], line: line, field: fields[column], quotedAllowed: true) else {
                        throw EventError.malformed(file: path, line: line, field: fields[column], reason: "missing (--cuped needs it)")
                    }
                    numbers.append(number)
                }
                let sums = CovariateTotals(sum: numbers[0], sumSquares: numbers[1], crossSum: numbers[2])
                do throws(StatisticsError) {
                    // A proportion's covariate is 0 or 1 per subject, as its outcome is.
                    if type == .proportion {
                        _ = try GroupStatistics.proportion(subjects: count, sum: sums.sum, sumSquares: sums.sumSquares)
                    }
                    _ = try CovariateTotals.group(sums, outcome: statistics)
                } catch {
                    let field = type == .proportion && (error.field == .sum || error.field == .sumSquares)
                        ? (error.field == .sum ? "covariate_sum" : "covariate_sum_squares") : error.field?.rawValue
                    throw EventError.malformed(file: path, line: line, field: field, reason: "impossible covariate sums: " + error.message)
                }
                covariate = sums
            }
            entry.variants[index] = VariantTotals(statistics: statistics, covariate: covariate)
            totals[metric] = entry
        }
        let chosen = wanted.isEmpty ? order.sorted() : wanted.filter { totals[$0] != nil }
        let metrics = chosen.compactMap { name in
            totals[name].map { MetricTotals(name: name, type: $0.type, variants: $0.variants.map {
                $0 ?? VariantTotals(statistics: .empty, covariate: cuped ? CovariateTotals(sum: 0, sumSquares: 0, crossSum: 0) : nil)
            }) }
        }
        let perVariant = names.indices.map { index in metrics.map { $0.variants[index].statistics.subjects }.max() ?? 0 }
        return Analysis(experiment: experiment.key, variants: names, control: experiment.control, window: window,
                        subjects: SubjectCounts(exposed: nil, analysed: total(perVariant).partialValue, multipleVariants: nil, whitelisted: nil, unknownVariantRows: nil),
                        variantSubjects: perVariant, metrics: metrics, missingMetrics: wanted.filter { totals[$0] == nil })
    }

    /// The sum of `counts`, and whether it overflowed.
    static func total(_ counts: [Int]) -> (partialValue: Int, overflow: Bool) {
        var sum = 0
        for count in counts {
            let (next, overflow) = sum.addingReportingOverflow(count)
            if overflow { return (next, true) }
            sum = next
        }
        return (sum, false)
    }
}
