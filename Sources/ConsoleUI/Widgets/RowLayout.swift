/// The rows of a panel top to bottom, where spacing and then details give way when the panel is short.
struct RowLayout<Row> {
    /// How hard a row holds on to its place when the panel is short.
    enum Keep: Int, Comparable {
        /// Blank lines between groups: dropped first.
        case spacing
        /// Hints and secondary facts: dropped next.
        case detail
        /// Never dropped (the bottom is cut when even these do not fit).
        case always

        static func < (lhs: Keep, rhs: Keep) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    private var rows: [(row: Row, keep: Keep)] = []

    /// Appends a row.
    mutating func add(_ row: Row, keep: Keep = .always) { rows.append((row, keep)) }

    /// Appends several rows.
    mutating func add(_ rows: [Row], keep: Keep = .always) { rows.forEach { add($0, keep: keep) } }

    /// How many rows there are with nothing dropped.
    var count: Int { rows.count }

    /// The rows that fit in `height`: spacing goes first, then details (the lowest first), then the bottom is cut.
    func fitting(_ height: Int) -> [Row] {
        var kept = rows
        for level in [Keep.spacing, .detail] {
            var index = kept.count - 1
            while kept.count > height, index >= 0 {
                if kept[index].keep == level { kept.remove(at: index) }
                index -= 1
            }
        }
        return kept.prefix(max(0, height)).map(\.row)
    }
}
