import ExperimentCore

/// The experiment list's experiments sorted by key, and which of them match the filter, rebuilt
/// only when the store or the filter changes (never per frame or per movement key).
///
/// Held in a `RowCache` and brought up to date on demand by the update and the views. It is keyed
/// on everything it shows, so it can never describe another store: the snapshot's revision and its
/// experiments (compared by storage identity first, so checking an unchanged store costs nothing,
/// and in full otherwise).
struct ListRows: Sendable {
    /// The store revision and experiments the rows were built from (nil: never built).
    private var revision: Int?
    private var source: [String: Experiment] = [:]
    /// The filter `matching` was built for.
    private(set) var filter = ""
    /// Every experiment, sorted by key.
    private var all: [Experiment] = []
    private var texts: [ListMatchText] = []
    /// The positions in `all` of the experiments matching `filter`, ascending.
    private var matching: [Int] = []
    /// The display width of the longest key and of the widest weights text of every experiment (not
    /// only the matching ones), so the list's columns keep their widths while the filter changes.
    private(set) var longestKey = 0
    private(set) var widestWeights = 0
    /// The display width of the widest `→ winner` of a resolved experiment.
    private(set) var widestWinner = 0
    /// The digits of the largest whitelist.
    private(set) var widestWhitelist = 0

    /// Rows never built: current for no store.
    init() {}

    /// Rows built for `snapshot` under `filter`.
    init(_ snapshot: StoreSnapshot, filter: String) {
        update(for: snapshot, filter: filter)
    }

    /// How many experiments match.
    var count: Int { matching.count }
    var isEmpty: Bool { matching.isEmpty }

    /// The matching experiment at `row`.
    subscript(row: Int) -> Experiment { all[matching[row]] }

    /// The key of the matching experiment at `row`.
    func key(at row: Int) -> String { all[matching[row]].key }

    /// The matching experiments, in order.
    var experiments: [Experiment] { matching.map { all[$0] } }

    /// Whether the rows still describe `snapshot` under `filter`.
    func isCurrent(for snapshot: StoreSnapshot, filter: String) -> Bool {
        self.filter == filter && isCurrent(for: snapshot)
    }

    private func isCurrent(for snapshot: StoreSnapshot) -> Bool {
        revision == snapshot.revision && source == snapshot.experiments
    }

    /// Brings the rows up to date; returns whether anything was rebuilt.
    @discardableResult
    mutating func update(for snapshot: StoreSnapshot, filter: String) -> Bool {
        let storeIsCurrent = isCurrent(for: snapshot)
        guard !storeIsCurrent || filter != self.filter else { return false }
        if !storeIsCurrent {
            revision = snapshot.revision
            source = snapshot.experiments
            all = snapshot.experiments.values.sorted { $0.key < $1.key }
            texts = all.map(ListMatchText.init)
            longestKey = all.reduce(0) { max($0, DisplayWidth.of(SafeText.escaped($1.key))) }
            widestWeights = all.reduce(0) { $1.winner == nil ? max($0, DisplayWidth.of(WeightBar.numbers($1.variants.map(\.weight)))) : $0 }
            widestWinner = all.reduce(0) { max($0, $1.winner.map { DisplayWidth.of(ListColumns.winnerText($0)) } ?? 0) }
            widestWhitelist = String(all.reduce(0) { max($0, $1.whitelist.count) }).count
        }
        self.filter = filter
        if filter.isEmpty {
            matching = Array(all.indices)
        } else {
            let needle = ListNeedle(filter)
            matching = texts.withUnsafeBufferPointer { texts in texts.indices.filter { texts[$0].matches(needle) } }
        }
        return true
    }

    /// The row of the matching experiment `key`, if it matches.
    func row(of key: String) -> Int? {
        let row = position(of: key)
        return row < matching.count && all[matching[row]].key == key ? row : nil
    }

    /// The first row whose key sorts after `key` (`count` when none does).
    func rowAfter(_ key: String) -> Int {
        var low = 0, high = matching.count
        while low < high {
            let middle = (low + high) / 2
            if key < all[matching[middle]].key { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// The first row whose key does not sort before `key`.
    private func position(of key: String) -> Int {
        var low = 0, high = matching.count
        while low < high {
            let middle = (low + high) / 2
            if all[matching[middle]].key < key { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
