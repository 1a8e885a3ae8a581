/// One warning of a report: what makes the numbers less trustworthy and what to do about it, in words.
package struct ResultsWarning: Equatable, Sendable {
    package enum Kind: Equatable, Sendable {
        case noExposures, multipleExposures, whitelisted, unknownVariant, sampleRatioMismatch, weightsChanged, cupedAdjustsNothing, missingMetric
        /// A guardrail no conversion names in the window: nothing says it holds (SPEC §12).
        case guardrailWithoutData
        /// A log's half-written last line, left out (a logger is appending).
        case readNote
    }

    package var kind: Kind
    package var text: String

    /// Whether a front must show it above the numbers: a sample-ratio mismatch, many subjects in several variants, a guardrail without data.
    package var isBanner: Bool { kind == .sampleRatioMismatch || kind == .multipleExposures || kind == .guardrailWithoutData }
}

/// The warnings of a report, in words: what makes the numbers less trustworthy and what to do about it.
enum ResultsWarnings {
    /// Share and count of subjects in several variants from which SPEC §8 asks for a warning.
    static let multipleShare = 0.01
    static let multipleCount = 10

    static func all(_ analysis: Analysis, _ verdict: SampleRatioVerdict, guardrailsWithoutData: [String] = []) -> [ResultsWarning] {
        var warnings: [ResultsWarning] = []
        let counts = analysis.subjects
        if let exposed = counts.exposed, exposed == 0 {
            warnings.append(ResultsWarning(kind: .noExposures, text: "no exposures of `\(analysis.experiment)` inside the window \(EventTime.format(analysis.window.from)) – \(EventTime.format(analysis.window.to))"))
        }
        if let multiple = counts.multipleVariants, let exposed = counts.exposed, exposed > 0,
           multiple >= multipleCount, Double(multiple) >= multipleShare * Double(exposed) {
            warnings.append(ResultsWarning(kind: .multipleExposures, text: "\(multiple) of \(exposed) subjects (\(percent(Double(multiple) / Double(exposed)))) saw more than one variant and were removed; check that assignment is sticky and that the logs name the right subject ids"))
        }
        if let whitelisted = counts.whitelisted, whitelisted > 0 {
            warnings.append(ResultsWarning(kind: .whitelisted, text: "\(whitelisted) whitelisted \(whitelisted == 1 ? "subject was" : "subjects were") removed: whitelisted subjects are not bucketed and should not be logged as exposures"))
        }
        if let unknown = counts.unknownVariantRows, unknown > 0 {
            warnings.append(ResultsWarning(kind: .unknownVariant, text: "\(unknown) exposure \(unknown == 1 ? "row names" : "rows name") a variant `\(analysis.experiment)` does not have (\(analysis.variants.joined(separator: ", "))); ignored"))
        }
        switch verdict.status {
        case .mismatch:
            let p = verdict.pValue.map(ResultsFormat.pClause) ?? "p unknown"
            warnings.append(ResultsWarning(kind: .sampleRatioMismatch, text: "sample-ratio mismatch (\(p)): the split of subjects is not what the weights say; find why before trusting these results"))
        case .notApplicable where analysis.window.weightsChangedInside:
            warnings.append(ResultsWarning(kind: .weightsChanged, text: "the weights changed inside the window, so the sample-ratio check does not apply; use --from/--to to look at one phase"))
        default:
            break
        }
        for metric in analysis.metrics where metric.variants.allSatisfy({ $0.covariate != nil })
            && metric.variants.allSatisfy({ $0.covariate?.sum == 0 && $0.covariate?.sumSquares == 0 }) {
            warnings.append(ResultsWarning(kind: .cupedAdjustsNothing, text: "CUPED adjusts nothing for `\(metric.name)`: no conversion falls in the lookback before the subjects' first exposures (do the logs reach back that far?)"))
        }
        for metric in guardrailsWithoutData {
            warnings.append(ResultsWarning(kind: .guardrailWithoutData, text: "guardrail `\(metric)` has no data: no conversion of the analysed subjects names it in the window (a typo in its name, or no data yet), so nothing says it holds; resolving to a variant needs --force (in the console, a second Enter)"))
        }
        for metric in analysis.missingMetrics where !guardrailsWithoutData.contains(metric) {
            warnings.append(ResultsWarning(kind: .missingMetric, text: "no conversion names the metric `\(metric)`"))
        }
        warnings += analysis.readNotes.map { ResultsWarning(kind: .readNote, text: $0) }
        return warnings
    }

    static func percent(_ share: Double) -> String {
        let value = share * 100
        return value >= 10 ? "\(Int(value.rounded())) %" : "\((value * 10).rounded() / 10) %"
    }

}
