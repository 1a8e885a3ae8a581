import ExperimentCore

extension AppState {
    /// Closes the overlay, else the top screen, else clears the list filter.
    mutating func closeTop(_ rows: RowCache) {
        if overlay != nil {
            overlay = nil
        } else if !stack.isEmpty {
            if case .inspector(var inspector) = stack.removeLast() {
                if inspector.focus == .table { inspector.focus = .user }
                lastInspector = inspector
            }
        } else if !list.filter.isEmpty {
            list.filter = ""
            list.isFiltering = false
            list.keepSelection(rows.listRows(self))
        }
    }

    /// After the store changed: drop screens about experiments that are gone, bring the open form or
    /// dialog up to date (see `Overlay.refreshed`), keep the selection valid.
    mutating func repairAfterReload(_ rows: RowCache) {
        stack.removeAll { screen in screen.experimentKey.map { snapshot.experiments[$0] == nil } ?? false }
        if case .some(let overlay) = overlay, let key = overlay.experimentKey, snapshot.experiments[key] == nil { self.overlay = nil }
        overlay = overlay?.refreshed(snapshot)
        list.keepSelection(rows.listRows(self))
    }

    /// The filter of the whitelist on top, if it is on top.
    var topWhitelistFilter: String? {
        if case .whitelist(let screen)? = stack.last { screen.filter } else { nil }
    }

    /// Puts the top whitelist's selection on one of its rows: when it has none, and (`always`) after
    /// the store or the filter changed — the same subject, else the next one. Between those it may
    /// name a subject not listed yet (the one a form is adding), drawn where it will appear.
    mutating func keepSelectionOnARow(_ rows: RowCache, always: Bool) {
        guard case .whitelist(var screen)? = stack.last, always || screen.selectedSubject == nil,
              let experiment = snapshot.experiments[screen.experimentKey] else { return }
        let entries = rows.whitelistRows(experiment, filter: screen.filter)
        guard !entries.matching.isEmpty else { return }
        let subject = SubjectID(entries[screen.selectedIndex(in: entries)].subject)
        guard subject != screen.selectedSubject else { return }
        screen.selectedSubject = subject
        stack[stack.count - 1] = .whitelist(screen)
    }
}
