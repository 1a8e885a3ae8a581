import ExperimentCore

/// The experiment list: the filter line, the column header and the visible rows (see `ListColumns`).
enum ListView {
    /// The experiment rows shown in an area `bodyHeight` rows high (below the filter line and the header).
    static func visibleRows(bodyHeight: Int, showsFilter: Bool) -> Int {
        max(1, bodyHeight - 1 - (showsFilter ? 1 : 0))
    }

    static func render(_ state: AppState, rows cache: RowCache, into buffer: inout ScreenBuffer, area: Rect) {
        var area = area
        if state.list.isFiltering || !state.list.filter.isEmpty {
            FilterLine.render(state.list.filterField, typing: state.list.isFiltering, x: area.x + 1, y: area.y, width: area.width - 2, into: &buffer)
            area = area.inset(top: 1)
        }
        let experiments = cache.listRows(state)
        let columns = ListColumns(width: area.width, longestKey: experiments.longestKey, widestWeights: experiments.widestWeights,
                                  widestWinner: experiments.widestWinner, widestWhitelist: experiments.widestWhitelist)
        columns.header(y: area.y, into: &buffer)
        let rows = area.inset(top: 1)
        guard !experiments.isEmpty else {
            let canCreate = Intent.newExperiment.availability(AvailabilityFacts(state)).isAvailable
            let text = state.snapshot.experiments.isEmpty
                ? (canCreate ? "no experiments yet — press n to create one" : "no experiments yet (read-only: create them with `abconsole create`)")
                : "no experiment matches the filter — Esc clears it"
            buffer.write(text, x: rows.x + 1, y: rows.y + 1, maxWidth: rows.width - 2, style: Palette.dim)
            return
        }
        let selected = state.list.selectedKey.flatMap(experiments.row) ?? 0
        let first = Scrolling.firstRow(selected: selected, count: experiments.count, visible: rows.height)
        for row in first..<min(experiments.count, first + rows.height) {
            columns.row(experiments[row], y: rows.y + row - first, selected: row == selected, into: &buffer)
        }
    }
}
