import ExperimentCore
import ExperimentStore

/// The experiment list: key, type, status, stacked weight bar, whitelist count, last change.
enum ListView {
    /// The experiment rows shown in an area `bodyHeight` rows high (below the filter line and the header).
    static func visibleRows(bodyHeight: Int, showsFilter: Bool) -> Int {
        max(1, bodyHeight - 1 - (showsFilter ? 1 : 0))
    }

    static func render(_ state: AppState, rows cache: RowCache, into buffer: inout ScreenBuffer, area: Rect) {
        var area = area
        if state.list.isFiltering || !state.list.filter.isEmpty {
            let label = state.list.isFiltering ? "/" : "filter: "
            let used = buffer.write(label, x: area.x + 1, y: area.y, style: Palette.key)
            TextField.drawFilter(state.list.filterField, isTyping: state.list.isFiltering, x: area.x + 1 + used, y: area.y,
                                 width: area.width - used - 2, into: &buffer)
            area = area.inset(top: 1)
        }
        let experiments = cache.listRows(state)
        let columns = Columns(width: area.width)
        columns.header(y: area.y, into: &buffer)
        let rows = area.inset(top: 1)
        guard !experiments.isEmpty else {
            let text = state.snapshot.experiments.isEmpty ? "no experiments yet — press n to create one" : "no experiment matches the filter — Esc clears it"
            buffer.write(text, x: rows.x + 1, y: rows.y + 1, maxWidth: rows.width - 2, style: Palette.dim)
            return
        }
        let selected = state.list.selectedKey.flatMap(experiments.row) ?? 0
        let first = Scrolling.firstRow(selected: selected, count: experiments.count, visible: rows.height)
        for row in first..<min(experiments.count, first + rows.height) {
            columns.row(experiments[row], y: rows.y + row - first, selected: row == selected, into: &buffer)
        }
    }

    /// Column positions for a given width; the key column takes what the others leave.
    struct Columns {
        let width: Int
        var type: Int { 7 }
        var status: Int { 9 }
        var bar: Int { width >= 100 ? 24 : 14 }
        var whitelist: Int { 6 }
        var changed: Int { width >= 100 ? 28 : 12 }
        var key: Int { max(10, width - 2 - type - status - bar - whitelist - changed - 5) }

        func header(y: Int, into buffer: inout ScreenBuffer) {
            var x = 1
            for (title, size) in [("KEY", key), ("TYPE", type), ("STATUS", status), ("WEIGHTS", bar), ("WL", whitelist), ("LAST CHANGE", changed)] {
                buffer.write(title, x: x, y: y, maxWidth: size, style: Palette.header)
                x += size + 1
            }
        }

        func row(_ experiment: Experiment, y: Int, selected: Bool, into buffer: inout ScreenBuffer) {
            var x = 1
            buffer.write(SafeText.escaped(experiment.key), x: x, y: y, maxWidth: key, style: selected ? Palette.selected.bolded : .bold)
            x += key + 1
            buffer.write(experiment.type.rawValue, x: x, y: y, maxWidth: type)
            x += type + 1
            buffer.write(experiment.status.rawValue, x: x, y: y, maxWidth: status, style: Palette.status(experiment.status))
            x += status + 1
            if let winner = experiment.winner {
                buffer.write("→ \(winner)", x: x, y: y, maxWidth: bar, style: Palette.status(.resolved))
            } else {
                WeightBar.render(experiment.variants.map(\.weight), x: x, y: y, width: bar, into: &buffer)
            }
            x += bar + 1
            buffer.write(String(experiment.whitelist.count), x: x, y: y, maxWidth: whitelist)
            x += whitelist + 1
            let when = TimeText.short(experiment.updatedAt)
            let text = changed >= 20 ? "\(when) \(SafeText.escaped(experiment.updatedBy))" : when
            buffer.write(text, x: x, y: y, maxWidth: changed, style: Palette.dim)
            if selected { buffer.write("▶", x: 0, y: y, style: Palette.key) }
        }
    }
}
