import ExperimentCore
import ExperimentStore

extension AppState {
    /// Closes the overlay, else the top screen, else clears the list filter.
    mutating func closeTop(_ rows: RowCache) {
        if overlay != nil {
            overlay = nil
        } else if !stack.isEmpty {
            stack.removeLast()
        } else if !list.filter.isEmpty {
            list.filter = ""
            list.isFiltering = false
            list.keepSelection(rows.listRows(self))
        }
    }

    /// After the store changed: drop screens about experiments that are gone, keep the selection valid.
    mutating func repairAfterReload(_ rows: RowCache) {
        stack.removeAll { screen in screen.experimentKey.map { snapshot.experiments[$0] == nil } ?? false }
        if case .some(let overlay) = overlay, let key = overlay.experimentKey, snapshot.experiments[key] == nil { self.overlay = nil }
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

    /// Hands a key to the form or confirmation; it changes itself and answers.
    mutating func handle(_ key: Key, _ intent: Intent?, _ context: ScreenContext) -> ScreenReply {
        switch self {
        case .ramp(var value):
            defer { self = .ramp(value) }
            return value.handle(key, intent, context)
        case .confirm(let value):
            return value.handle(intent)
        case .resolve(var value):
            defer { self = .resolve(value) }
            return value.handle(key, intent, context)
        case .whitelistAdd(var value):
            defer { self = .whitelistAdd(value) }
            return value.handle(key, intent, context)
        case .importCSV(var value):
            defer { self = .importCSV(value) }
            return value.handle(key, intent, context)
        case .newExperiment(var value):
            defer { self = .newExperiment(value) }
            return value.handle(key, intent, context)
        }
    }
}

extension Screen {
    /// Hands a key to the screen; it changes itself and answers (the list and detail are handled by the update).
    mutating func handle(_ key: Key, _ intent: Intent?, _ context: ScreenContext) -> ScreenReply {
        switch self {
        case .list, .detail:
            return .browse(intent)
        case .whitelist(var value):
            defer { self = .whitelist(value) }
            return value.handle(key, intent, context)
        case .history(var value):
            defer { self = .history(value) }
            return value.handle(intent, context)
        case .inspector(var value):
            defer { self = .inspector(value) }
            return value.handle(key, intent, context)
        }
    }
}

extension Confirmation {
    /// `y` saves the change on the revision shown; `n`/`Esc` goes back to the form that asked.
    func handle(_ intent: Intent?) -> ScreenReply {
        switch intent {
        case .confirm?:
            return .start(.apply(change, expectedRevision: expectedRevision))
        case .deny?, .cancel?, .back?:
            return ScreenReply(status: .show(.info("nothing changed")), close: true, present: returnTo)
        default:
            return .none
        }
    }
}
