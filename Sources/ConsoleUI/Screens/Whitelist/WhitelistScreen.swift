import ExperimentCore
import ExperimentStore

/// The whitelist screen of one experiment: entries sorted by subject, a filter, add, remove, import.
public struct WhitelistScreen: Equatable, Sendable {
    public var experimentKey: String
    /// Matches subject, variant or note (ASCII letters case-insensitively).
    public var filter = ""
    /// Whether `/` is active and keys type into the filter.
    public var isFiltering = false
    /// The selected entry, kept by subject so reloads and removals keep the place.
    public var selectedSubject: SubjectID?
    /// The sorted and filtered subjects, derived from the store (not part of equality).
    var rows = WhitelistRows()

    public init(experimentKey: String) { self.experimentKey = experimentKey }

    public static func == (lhs: WhitelistScreen, rhs: WhitelistScreen) -> Bool {
        lhs.experimentKey == rhs.experimentKey && lhs.filter == rhs.filter && lhs.isFiltering == rhs.isFiltering
            && lhs.selectedSubject == rhs.selectedSubject
    }

    /// The selected row in the filtered subjects (0 when there is none).
    var selectedIndex: Int {
        guard !rows.matching.isEmpty else { return 0 }
        return min(selectedSubject.map(rows.position) ?? 0, rows.matching.count - 1)
    }

    /// Rebuilds the rows when the experiment or the filter changed and keeps the selection on a row.
    mutating func refresh(_ experiment: Experiment) {
        guard rows.update(for: experiment, filter: filter) || selectedSubject == nil else { return }
        if !rows.matching.isEmpty { selectedSubject = SubjectID(rows[selectedIndex].subject) }
    }

    /// Selects the row `offset` rows away (clamped).
    mutating func moveSelection(by offset: Int) {
        guard !rows.matching.isEmpty else { return }
        selectedSubject = SubjectID(rows[min(max(selectedIndex + offset, 0), rows.matching.count - 1)].subject)
    }
}

extension WhitelistScreen {
    /// Rows PgUp/PgDn move.
    static let page = 20

    /// Handles a key while this is on top; returns the effects to perform.
    static func handle(_ key: Key, _ intent: Intent?, _ app: inout AppState) -> [Effect] {
        guard case .whitelist(var screen)? = app.stack.last, let experiment = app.snapshot.experiments[screen.experimentKey] else {
            app.closeTop()
            return []
        }
        screen.refresh(experiment)
        if screen.isFiltering {
            screen.typeFilter(key, experiment)
            app.stack[app.stack.count - 1] = .whitelist(screen)
            return []
        }
        switch intent {
        case .moveDown?: screen.moveSelection(by: 1)
        case .moveUp?: screen.moveSelection(by: -1)
        case .top?: screen.moveSelection(by: -Int.max / 2)
        case .bottom?: screen.moveSelection(by: Int.max / 2)
        case .pageDown?: screen.moveSelection(by: page)
        case .pageUp?: screen.moveSelection(by: -page)
        case .filter?: screen.isFiltering = true
        case .back? where key == .escape && !screen.filter.isEmpty:
            screen.filter = ""
            screen.refresh(experiment)
        case .back?, .quit?, .cancel?:
            app.closeTop()
            return []
        case .whitelistAdd?:
            guard app.requireWritable("add to the whitelist"), app.requireNotResolved(experiment, "its whitelist") else { break }
            app.message = nil
            app.overlay = .whitelistAdd(WhitelistForm(experiment))
        case .whitelistRemove?:
            askRemoval(screen, experiment, &app)
        case .whitelistImport?:
            guard app.requireWritable("import a whitelist"), app.requireNotResolved(experiment, "its whitelist") else { break }
            app.message = nil
            app.overlay = .importCSV(ImportForm(experiment))
        default:
            app.stack[app.stack.count - 1] = .whitelist(screen)
            return ConsoleUpdate.handleBrowsing(intent, &app)
        }
        app.stack[app.stack.count - 1] = .whitelist(screen)
        return []
    }

    /// Typing narrows at once; Enter keeps the filter, Esc clears it; ↑/↓ still move.
    private mutating func typeFilter(_ key: Key, _ experiment: Experiment) {
        switch key {
        case .enter:
            isFiltering = false
            return
        case .escape:
            isFiltering = false
            filter = ""
        case .backspace:
            if !filter.isEmpty { filter.removeLast() }
        case .control("u"):
            filter = ""
        case .character(let character) where !character.isNewline:
            filter.append(character)
        case .down:
            return moveSelection(by: 1)
        case .up:
            return moveSelection(by: -1)
        default:
            return
        }
        refresh(experiment)
        if isFiltering, !rows.matching.isEmpty { selectedSubject = SubjectID(rows[0].subject) }
    }

    /// Opens the `y` confirmation for removing the selected entry, saying what the subject gets after.
    private static func askRemoval(_ screen: WhitelistScreen, _ experiment: Experiment, _ app: inout AppState) {
        guard app.requireWritable("remove from the whitelist"), app.requireNotResolved(experiment, "its whitelist") else { return }
        guard !screen.rows.matching.isEmpty, let subject = screen.selectedSubject, let entry = experiment.whitelistEntry(for: subject.text) else {
            app.message = .error("nothing to remove: no entry is selected")
            return
        }
        var unlisted = experiment
        unlisted.whitelist = [:]
        let after = CompiledExperiment(unlisted).decide(for: Subject(userID: entry.subject, deviceID: entry.subject))
        let bucket = after.bucket.map { "bucket \($0), " } ?? ""
        app.message = nil
        app.overlay = .confirm(Confirmation(
            title: "Remove `\(entry.subject)` from the whitelist of `\(experiment.key)`?",
            lines: ["It is forced into `\(entry.variant)` (added by \(entry.addedBy), \(TimeText.short(entry.addedAt))).",
                    "Afterwards it gets `\(after.variant)` (\(bucket)\(after.reason.rawValue))."],
            change: .whitelistRemove(experiment: experiment.key, subject: entry.subject),
            expectedRevision: experiment.revision))
    }
}
