import ExperimentCore
import ExperimentStore

/// The experiment list's columns: key, type, status, weights (numbers, then a bar when there is
/// room), whitelist count, last update and who made it, and the description on wide terminals.
///
/// The widths come from the data (the longest key, the widest weights) and from the terminal width
/// by fixed breakpoints — the bar appears at 90 columns and widens at 120, the operator appears at
/// 100 — so resizing within a band moves only the description's right edge. When the terminal is too
/// narrow, the description, then the bar, then the operator give way before the key is cut.
struct ListColumns: Equatable {
    static let type = 6, status = 8, whitelist = 5, updated = 20, by = 12
    /// The narrowest description worth showing.
    static let minimumDescription = 16

    let key: Int
    /// The weights as numbers (`40/40/20`).
    let weights: Int
    /// The stacked bar after the numbers; 0 when it is not shown.
    let bar: Int
    /// The operator of the last update; 0 when it is not shown.
    let updatedBy: Int
    /// The description; 0 when it is not shown.
    let description: Int

    /// `widestWinner`: the widest `→ winner` of a resolved experiment, which the weights column grows
    /// to (as far as there is room) when neither the bar nor the description is shown.
    init(width: Int, longestKey: Int, widestWeights: Int, widestWinner: Int = 0) {
        let key = max(3, longestKey)
        var weights = max(7, widestWeights)
        var bar = width >= 120 ? 20 : width >= 90 ? 10 : 0
        var updatedBy = width >= 100 ? Self.by : 0
        func used() -> Int {
            // The selection marker, then each column and the space after it.
            1 + key + 1 + Self.type + 1 + Self.status + 1 + weights + 1 + (bar > 0 ? bar + 1 : 0)
                + Self.whitelist + 1 + Self.updated + (updatedBy > 0 ? 1 + updatedBy : 0)
        }
        if used() > width { bar = 0 }
        if used() > width { updatedBy = 0 }
        var rest = width - used() - 2
        if bar == 0, rest < Self.minimumDescription, widestWinner > weights {
            weights += max(0, min(width - used(), widestWinner - weights))
            rest = width - used() - 2
        }
        self.key = used() > width ? max(3, key - (used() - width)) : key
        self.weights = weights
        self.bar = bar
        self.updatedBy = updatedBy
        description = rest >= Self.minimumDescription ? rest : 0
    }

    /// The columns as (title, width), the hidden ones left out; the weights title spans the bar.
    private var titles: [(String, Int)] {
        [("KEY", key), ("TYPE", Self.type), ("STATUS", Self.status), ("WEIGHTS", weights + (bar > 0 ? bar + 1 : 0)),
         ("WL", Self.whitelist), ("UPDATED", Self.updated)]
            + (updatedBy > 0 ? [("BY", updatedBy)] : []) + (description > 0 ? [("DESCRIPTION", description)] : [])
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

    func row(_ experiment: Experiment, y: Int, selected: Bool, into buffer: inout ScreenBuffer) {
        var x = 1
        buffer.write(SafeText.escaped(experiment.key), x: x, y: y, maxWidth: key, style: selected ? Palette.selected.bolded : .bold)
        x += key + 1
        buffer.write(experiment.type.rawValue, x: x, y: y, maxWidth: Self.type)
        x += Self.type + 1
        buffer.write(experiment.status.rawValue, x: x, y: y, maxWidth: Self.status, style: Palette.status(experiment.status))
        x += Self.status + 1
        let weightsAndBar = weights + (bar > 0 ? bar + 1 : 0)
        if let winner = experiment.winner {
            buffer.write(Self.winnerText(winner), x: x, y: y, maxWidth: weightsAndBar, style: Palette.status(.resolved))
        } else {
            let weightList = experiment.variants.map(\.weight)
            buffer.write(WeightBar.numbers(weightList), x: x, y: y, maxWidth: weights)
            if bar > 0 { WeightBar.render(weightList, x: x + weights + 1, y: y, width: bar, into: &buffer) }
        }
        x += weightsAndBar + 1
        buffer.write(String(experiment.whitelist.count), x: x, y: y, maxWidth: Self.whitelist)
        x += Self.whitelist + 1
        buffer.write(TimeLabel.utcMinutes(experiment.updatedAt), x: x, y: y, maxWidth: Self.updated, style: Palette.dim)
        x += Self.updated + 1
        if updatedBy > 0 {
            buffer.write(SafeText.escaped(experiment.updatedBy), x: x, y: y, maxWidth: updatedBy, style: Palette.dim)
            x += updatedBy + 1
        }
        if description > 0 {
            buffer.write(SafeText.escaped(experiment.description), x: x, y: y, maxWidth: description, style: Palette.dim)
        }
        if selected { buffer.write("▶", x: 0, y: y, style: Palette.key) }
    }
}
