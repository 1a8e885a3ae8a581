import ExperimentCore

/// The experiment list's columns: key, type, status, weights (numbers, then a bar when there is
/// room), whitelist count, last update and who made it, and the description on wide terminals.
///
/// The widths come from the data (the longest key, the widest weights) and from the terminal width
/// by fixed breakpoints — the bar appears at 90 columns and widens at 120, the operator appears at
/// 100 — so resizing within a band moves only the description's right edge. When the terminal is too
/// narrow, the description, the bar, the operator, the update time, the type, the whitelist count
/// and the weights give way in that order before the key is cut; the status always stays.
struct ListColumns: Equatable {
    static let type = 6, status = 8, updated = 20, by = 12
    /// The narrowest description worth showing.
    static let minimumDescription = 16

    let key: Int
    /// The type; 0 when it gave way.
    let type: Int
    /// The weights as numbers (`40/40/20`); 0 when they gave way.
    let weights: Int
    /// The whitelist count, as wide as the largest count (at least 5); 0 when it gave way.
    let whitelist: Int
    /// The time of the last update; 0 when it gave way.
    let updated: Int
    /// The stacked bar after the numbers; 0 when it is not shown.
    let bar: Int
    /// The operator of the last update; 0 when it is not shown.
    let updatedBy: Int
    /// The description; 0 when it is not shown.
    let description: Int

    /// `widestWinner`: the widest `→ winner` of a resolved experiment, which the weights column grows
    /// to (as far as there is room) when neither the bar nor the description is shown.
    /// `widestWhitelist`: the digits of the largest whitelist count, so no count is cut.
    init(width: Int, longestKey: Int, widestWeights: Int, widestWinner: Int = 0, widestWhitelist: Int = 0) {
        let key = max(3, longestKey)
        var type = Self.type
        var weights = max(7, widestWeights)
        var whitelist = max(5, widestWhitelist)
        var updated = Self.updated
        var bar = width >= 120 ? 20 : width >= 90 ? 10 : 0
        var updatedBy = width >= 100 ? Self.by : 0
        func column(_ size: Int) -> Int { size > 0 ? size + 1 : 0 }
        func used() -> Int {
            // The selection marker, the key and the status, then each shown column and the space before it.
            1 + key + 1 + Self.status + column(type) + column(weights) + column(bar) + column(whitelist) + column(updated) + column(updatedBy)
        }
        // What gives way, in order, before the key is cut.
        if used() > width { bar = 0 }
        if used() > width { updatedBy = 0 }
        if used() > width { updated = 0 }
        if used() > width { type = 0 }
        if used() > width { whitelist = 0 }
        if used() > width { weights = 0 }
        var rest = width - used() - 2
        if bar == 0, weights > 0, rest < Self.minimumDescription, widestWinner > weights {
            weights += max(0, min(width - used(), widestWinner - weights))
            rest = width - used() - 2
        }
        self.key = used() > width ? max(3, key - (used() - width)) : key
        self.type = type
        self.weights = weights
        self.whitelist = whitelist
        self.updated = updated
        self.bar = bar
        self.updatedBy = updatedBy
        description = rest >= Self.minimumDescription ? rest : 0
    }

    /// The columns as (title, width), the hidden ones left out; the weights title spans the bar.
    private var titles: [(String, Int)] {
        [("KEY", key), ("TYPE", type), ("STATUS", Self.status), ("WEIGHTS", weights + (bar > 0 ? bar + 1 : 0)),
         ("WL", whitelist), ("UPDATED", updated), ("BY", updatedBy), ("DESCRIPTION", description)].filter { $0.1 > 0 }
    }

    /// `→ winner`, what a resolved experiment shows instead of its weights.
    static func winnerText(_ winner: String) -> String { "→ \(SafeText.escaped(winner))" }

    func header(y: Int, into buffer: inout ScreenBuffer) {
        var x = 1
        for (title, size) in titles {
            buffer.write(title, x: x, y: y, maxWidth: size, style: Palette.header)
            x += size + 1
        }
    }

    /// The mark after the status of an experiment under a ramp plan (SPEC §14): `running↗`.
    static let planMark = "↗"

    /// Whether a ramp plan still carries `experiment` on (active or paused, not done or rolled back).
    static func isUnderPlan(_ experiment: Experiment) -> Bool {
        experiment.plan.map { $0.state == .active || $0.state == .paused } ?? false
    }

    func row(_ experiment: Experiment, y: Int, selected: Bool, into buffer: inout ScreenBuffer) {
        var x = 1
        /// Writes `text` in the next column of `size` (none when it gave way).
        func cell(_ text: String, _ size: Int, style: CellStyle = .plain) {
            guard size > 0 else { return }
            buffer.write(text, x: x, y: y, maxWidth: size, style: style)
            x += size + 1
        }
        cell(SafeText.escaped(experiment.key), key, style: selected ? Palette.selected.bolded : .bold)
        cell(experiment.type.rawValue, type)
        cell(experiment.status.rawValue + (Self.isUnderPlan(experiment) ? Self.planMark : ""), Self.status, style: Palette.status(experiment.status))
        let weightsAndBar = weights + (bar > 0 ? bar + 1 : 0)
        if weights > 0 {
            if let winner = experiment.winner {
                buffer.write(Self.winnerText(winner), x: x, y: y, maxWidth: weightsAndBar, style: Palette.status(.resolved))
            } else {
                let weightList = experiment.variants.map(\.weight)
                buffer.write(WeightBar.numbers(weightList), x: x, y: y, maxWidth: weights)
                if bar > 0 { WeightBar.render(weightList, x: x + weights + 1, y: y, width: bar, into: &buffer) }
            }
            x += weightsAndBar + 1
        }
        cell(String(experiment.whitelist.count), whitelist)
        cell(TimeLabel.utcMinutes(experiment.updatedAt), updated, style: Palette.dim)
        cell(SafeText.escaped(experiment.updatedBy), updatedBy, style: Palette.dim)
        cell(SafeText.escaped(experiment.description), description, style: Palette.dim)
        if selected { buffer.write("▶", x: 0, y: y, style: Palette.key) }
    }
}
