import ExperimentCore

/// The whitelist's entries sorted by subject, and which of them match the filter, rebuilt only when
/// the experiment or the filter changes (never per frame or per movement key).
struct WhitelistRows: Sendable {
    /// The experiment revision and whitelist size the rows were built from.
    private(set) var revision: Int?
    private(set) var count = 0
    /// The filter `matching` was built for.
    private(set) var filter = ""
    /// Every entry, in subject byte order (the store file's order).
    private(set) var all: [WhitelistEntry] = []
    /// The positions in `all` of the entries matching `filter`, ascending.
    private(set) var matching: [Int] = []
    /// Earlier filters with their matches, each one narrowed by the next, so Backspace costs nothing.
    private var earlier: [(filter: String, matching: [Int])] = []
    /// How many earlier filters are kept.
    private static let earlierLimit = 32

    /// The matching subjects, in order.
    var subjects: [SubjectID] { matching.map { SubjectID(all[$0].subject) } }

    /// The matching entry at `row`.
    subscript(row: Int) -> WhitelistEntry { all[matching[row]] }

    /// Whether the rows still describe `experiment` under `filter`.
    func isCurrent(for experiment: Experiment, filter: String) -> Bool {
        revision == experiment.revision && count == experiment.whitelist.count && self.filter == filter
    }

    /// Brings the rows up to date; returns whether anything was rebuilt.
    @discardableResult
    mutating func update(for experiment: Experiment, filter: String) -> Bool {
        guard !isCurrent(for: experiment, filter: filter) else { return false }
        if revision != experiment.revision || count != experiment.whitelist.count {
            all = SubjectOrder.sorted(experiment.whitelist.values)
            revision = experiment.revision
            count = experiment.whitelist.count
            self.filter = ""
            matching = Array(all.indices)
            earlier = []
        }
        guard filter != self.filter else { return true }
        let needle = FilterNeedle(filter)
        if let index = earlier.lastIndex(where: { $0.filter == filter }) {
            matching = earlier[index].matching
            earlier.removeSubrange(index...)
        } else if needle.narrows(FilterNeedle(self.filter)) {
            // A longer filter can only narrow: search the current matches instead of everything.
            earlier.append((self.filter, matching))
            if earlier.count > Self.earlierLimit { earlier.removeFirst() }
            matching = Self.select(matching, in: all, by: needle)
        } else {
            earlier = []
            matching = needle.isEmpty ? Array(all.indices) : Self.select(Array(all.indices), in: all, by: needle)
        }
        self.filter = filter
        return true
    }

    /// The positions among `candidates` whose entry's subject, variant or note contains `needle`.
    private static func select(_ candidates: [Int], in all: [WhitelistEntry], by needle: FilterNeedle) -> [Int] {
        candidates.filter { index in
            let entry = all[index]
            return needle.matches(entry.subject) || needle.matches(entry.variant) || needle.matches(entry.note)
        }
    }

    /// The row of `subject` among the matches, or where it would be (the next subject) when absent.
    func position(of subject: SubjectID) -> Int {
        var low = 0, high = matching.count
        while low < high {
            let middle = (low + high) / 2
            if SubjectOrder.precedes(all[matching[middle]].subject, subject.text) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
