import ExperimentCore
import ExperimentStore

extension AppState {
    /// Whether keys go into the list's or the whitelist's filter, so `?` is typed rather than opening help.
    var isTypingIntoAFilter: Bool {
        guard overlay == nil else { return false }
        switch screen {
        case .list: return list.isFiltering
        case .whitelist(let screen): return screen.isFiltering
        default: return false
        }
    }

    /// Closes the overlay, else the top screen, else clears the list filter.
    mutating func closeTop() {
        if overlay != nil {
            overlay = nil
        } else if !stack.isEmpty {
            stack.removeLast()
        } else if !list.filter.isEmpty {
            list.filter = ""
            list.isFiltering = false
        }
    }

    /// Whether writes are allowed; when not, says why in the status bar.
    mutating func requireWritable(_ what: String) -> Bool {
        guard readOnly else { return true }
        message = .error("read-only console (opened with --read-only): cannot \(what); restart without --read-only to make changes")
        return false
    }

    /// Whether `experiment` can still change; when resolved, says so in the status bar.
    mutating func requireNotResolved(_ experiment: Experiment, _ what: String) -> Bool {
        guard experiment.status == .resolved else { return true }
        message = .error(ExperimentError.resolvedIsFrozen(experiment: experiment.key, what: what).message)
        return false
    }

    /// After the store changed: drop screens about experiments that are gone, keep the selection valid.
    mutating func repairAfterReload() {
        stack.removeAll { screen in screen.experimentKey.map { snapshot.experiments[$0] == nil } ?? false }
        if case .some(let overlay) = overlay, let key = overlay.experimentKey, snapshot.experiments[key] == nil { self.overlay = nil }
        refreshListRows()
        let rows = list.rows
        guard !rows.isEmpty else { return list.selectedKey = nil }
        if let selected = list.selectedKey, rows.row(of: selected) != nil { return }
        list.selectedKey = rows.key(at: min(rows.rowAfter(list.selectedKey ?? ""), rows.count - 1))
    }

    /// Selects the experiment `offset` rows away in the visible list (clamped).
    mutating func moveSelection(by offset: Int) {
        refreshListRows()
        let rows = list.rows
        guard !rows.isEmpty else { return list.selectedKey = nil }
        let current = list.selectedKey.flatMap(rows.row) ?? 0
        list.selectedKey = rows.key(at: min(max(current + offset, 0), rows.count - 1))
    }
}

extension Overlay {
    /// The experiment the overlay changes, if any.
    var experimentKey: String? {
        switch self {
        case .ramp(let value): value.experimentKey
        case .confirm(let value): value.change.experimentKey
        case .resolve(let value): value.experimentKey
        case .whitelistAdd(let value): value.experimentKey
        case .importCSV(let value): value.experimentKey
        case .newExperiment: nil
        }
    }
}
