import ExperimentCore

/// The history table's columns: time, operator, experiment (when all are shown), action, change.
///
/// The time and the action are never cut. The experiment column is as wide as the longest key (at
/// most 24); when the change would get fewer than 12 columns the operator gives way, then the
/// change itself (the selected entry is shown in full below the table), so a 60-column terminal
/// still reads time, experiment and action whole.
struct HistoryColumns: Equatable {
    static let time = 20, action = 16, minimumChange = 12

    let operatorName: Int
    /// 0 when one experiment is shown.
    let experiment: Int
    /// 0 when there is no room for it.
    let change: Int

    init(width: Int, longestExperiment: Int?) {
        var experiment = longestExperiment.map { min(max(10, $0), 24) } ?? 0
        var operatorName = width >= 80 ? 12 : 0
        func rest() -> Int {
            width - Self.time - 1 - Self.action - 1 - (experiment > 0 ? experiment + 1 : 0) - (operatorName > 0 ? operatorName + 1 : 0)
        }
        if rest() < Self.minimumChange { operatorName = 0 }
        if rest() < Self.minimumChange, experiment > 0 {
            experiment = max(0, min(experiment, width - Self.time - 1 - Self.action - 1))
        }
        self.operatorName = operatorName
        self.experiment = experiment
        change = rest() >= Self.minimumChange ? rest() : 0
    }

    /// The shown columns as (title, width).
    private var titles: [(String, Int)] {
        [("TIME", Self.time)] + (operatorName > 0 ? [("OPERATOR", operatorName)] : []) + (experiment > 0 ? [("EXPERIMENT", experiment)] : [])
            + [("ACTION", Self.action)] + (change > 0 ? [("BEFORE → AFTER", change)] : [])
    }

    func header(x: Int, y: Int, into buffer: inout ScreenBuffer) {
        var column = x
        for (title, size) in titles {
            buffer.write(title, x: column, y: y, maxWidth: size, style: Palette.header)
            column += size + 1
        }
    }

    func row(_ entry: HistoryEntry, x: Int, y: Int, selected: Bool, into buffer: inout ScreenBuffer) {
        var column = x
        buffer.write(TimeLabel.utcMinutes(entry.at), x: column, y: y, maxWidth: Self.time, style: selected ? Palette.selected : Palette.dim)
        column += Self.time + 1
        if operatorName > 0 {
            buffer.write(SafeText.escaped(entry.operatorName), x: column, y: y, maxWidth: operatorName)
            column += operatorName + 1
        }
        if experiment > 0 {
            buffer.write(SafeText.escaped(entry.experiment), x: column, y: y, maxWidth: experiment, style: .bold)
            column += experiment + 1
        }
        buffer.write(entry.action.rawValue, x: column, y: y, maxWidth: Self.action, style: Palette.key)
        column += Self.action + 1
        if change > 0 { buffer.write(SafeText.escaped(entry.changeText), x: column, y: y, maxWidth: change) }
        if selected { buffer.write("▶", x: x - 1, y: y, style: Palette.key) }
    }
}
