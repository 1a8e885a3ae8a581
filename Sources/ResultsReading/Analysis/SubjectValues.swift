/// One metric's summed counted values per subject, stored sparsely (in the order subjects first
/// converted) until a quarter of the exposed subjects have one, then densely by subject index.
///
/// Memory is proportional to the conversion rows, not to metrics × subjects: a log naming many
/// metrics, each converted by few subjects, keeps a few entries per metric.
struct SubjectValues {
    private var positions: [Int32: Int32] = [:]
    private var entries: [(subject: Int32, value: Double)] = []
    private var dense: [Double] = []

    var isEmpty: Bool { entries.isEmpty && dense.isEmpty }

    /// Adds `value` to subject `index` (of `subjectCount`); returns the subject's new total.
    mutating func add(_ value: Double, at index: Int, subjectCount: Int) -> Double {
        if !dense.isEmpty {
            dense[index] += value
            return dense[index]
        }
        let key = Int32(truncatingIfNeeded: index)
        if let position = positions[key] {
            entries[Int(position)].value += value
            return entries[Int(position)].value
        }
        positions[key] = Int32(truncatingIfNeeded: entries.count)
        entries.append((key, value))
        if entries.count * 4 > subjectCount { densify(subjectCount) }
        return value
    }

    /// Subject `index`'s total; 0 when it has none.
    func value(at index: Int) -> Double {
        if !dense.isEmpty { return dense[index] }
        return positions[Int32(truncatingIfNeeded: index)].map { entries[Int($0)].value } ?? 0
    }

    /// Calls `body` with every stored subject index and total (dense: every subject, zeros included).
    func forEach(_ body: (_ index: Int, _ value: Double) -> Void) {
        if dense.isEmpty {
            for entry in entries { body(Int(entry.subject), entry.value) }
        } else {
            for (index, value) in dense.enumerated() { body(index, value) }
        }
    }

    private mutating func densify(_ subjectCount: Int) {
        dense = [Double](repeating: 0, count: subjectCount)
        for entry in entries { dense[Int(entry.subject)] = entry.value }
        entries = []
        positions = [:]
    }
}
