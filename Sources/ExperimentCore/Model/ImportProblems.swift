/// One bad line of a whitelist import.
public struct ImportProblem: Hashable, Sendable {
    public var line: Int
    public var reason: String

    public init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }
}

/// The bad lines of an import, gathered so that all of them are reported at once (the first 50, then a count).
public struct ImportProblems: Hashable, Sendable {
    /// How many bad lines a refusal lists before it only counts.
    public static let shownLimit = 50

    /// The bad lines kept, at most `shownLimit` of them, in line order once `sorted`.
    public private(set) var shown: [ImportProblem] = []
    /// How many bad lines there were in all.
    public private(set) var total = 0

    public init() {}

    /// Records a bad line.
    public mutating func append(line: Int, _ reason: String) {
        append(ImportProblem(line: line, reason: reason))
    }

    /// Records a bad line.
    public mutating func append(_ problem: ImportProblem) {
        total += 1
        shown.append(problem)
        if shown.count > ImportProblems.shownLimit * 2 { trim() }
    }

    /// Records every bad line of `other`.
    public mutating func merge(_ other: ImportProblems) {
        shown += other.shown
        total += other.total
        trim()
    }

    /// The refusal: nil when no line is bad, `importRow` for one, `importRows` for several (first lines first).
    public var error: ExperimentError? {
        var sorted = self
        sorted.trim()
        switch total {
        case 0: return nil
        case 1: return sorted.shown.first.map { .importRow(line: $0.line, reason: $0.reason) }
        default: return .importRows(problems: sorted.shown, total: total)
        }
    }

    /// Keeps the first `shownLimit` lines.
    private mutating func trim() {
        shown = Array(shown.sorted { $0.line < $1.line }.prefix(ImportProblems.shownLimit))
    }
}
