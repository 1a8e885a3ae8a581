import ExperimentCore

/// The whitelist screen of one experiment: entries sorted by subject, a filter, add, remove, import.
package struct WhitelistScreen: Equatable, Sendable {
    package var experimentKey: String
    /// The filter as typed, with its cursor.
    package var filterField = TextField()
    /// Matches subject, variant or note (ASCII letters case-insensitively); setting it puts the cursor at the end.
    package var filter: String {
        get { filterField.text }
        set { filterField.text = newValue }
    }
    /// Whether `/` is active and keys type into the filter.
    package var isFiltering = false
    /// The selected entry, kept by subject so reloads and removals keep the place.
    package var selectedSubject: SubjectID?

    package init(experimentKey: String) { self.experimentKey = experimentKey }

    /// The selected row among `rows` (0 when there is none).
    func selectedIndex(in rows: WhitelistRows) -> Int {
        guard !rows.matching.isEmpty else { return 0 }
        return min(selectedSubject.map(rows.position) ?? 0, rows.matching.count - 1)
    }

    /// Selects the row `offset` rows away (clamped).
    mutating func moveSelection(by offset: Int, _ rows: WhitelistRows) {
        guard !rows.matching.isEmpty else { return }
        selectedSubject = SubjectID(rows[min(max(selectedIndex(in: rows) + offset, 0), rows.matching.count - 1)].subject)
    }
}

extension WhitelistScreen {
    /// The entry rows shown in an area `bodyHeight` rows high (below the summary, the filter line and the header).
    static func visibleRows(bodyHeight: Int, showsFilter: Bool) -> Int {
        max(1, bodyHeight - 2 - (showsFilter ? 1 : 0))
    }

    /// Handles a key while this is on top.
    mutating func handle(_ key: Key, _ intent: Intent?, _ context: ScreenContext) -> ScreenReply {
        guard let experiment = context.snapshot.experiments[experimentKey] else { return .close() }
        let rows = { (filter: String) in context.rows.whitelistRows(experiment, filter: filter) }
        if isFiltering { return typeFilter(key, intent, rows) }
        let page = Self.visibleRows(bodyHeight: context.bodyHeight, showsFilter: !filter.isEmpty)
        switch intent {
        case .moveDown?: moveSelection(by: 1, rows(filter))
        case .moveUp?: moveSelection(by: -1, rows(filter))
        case .top?: moveSelection(by: -Int.max / 2, rows(filter))
        case .bottom?: moveSelection(by: Int.max / 2, rows(filter))
        case .pageDown?: moveSelection(by: page, rows(filter))
        case .pageUp?: moveSelection(by: -page, rows(filter))
        case .filter?:
            isFiltering = true
            filterField.selectAll()
        case .back? where key == .escape && !filter.isEmpty:
            filter = ""
        case .back?, .quit?, .cancel?:
            return .close()
        // Dispatch has checked `Intent.availability` (read-only, resolved) before these reach the screen.
        case .whitelistAdd?:
            return .present(.whitelistAdd(WhitelistForm(experiment)), status: .clear)
        case .whitelistRemove?:
            return askRemoval(experiment, rows(filter))
        case .whitelistEditNote?:
            guard !rows(filter).matching.isEmpty, let subject = selectedSubject, let entry = experiment.whitelistEntry(for: subject.text) else {
                return .show(.error("no note to edit: no entry is selected"))
            }
            return .present(.textEdit(.note(of: entry, in: experiment)), status: .clear)
        case .whitelistImport?:
            return .present(.importCSV(ImportForm(experiment)), status: .clear)
        case .inspect? where !rows(filter).matching.isEmpty:
            let shown = rows(filter)
            return .push(.inspector(InspectorScreen(subject: shown[selectedIndex(in: shown)].subject, of: experiment, context)))
        default:
            return .browse(intent)
        }
        return .none
    }

    /// Typing narrows at once; Enter keeps the filter, Esc clears it; ↑/↓ still move.
    private mutating func typeFilter(_ key: Key, _ intent: Intent?, _ rows: (String) -> WhitelistRows) -> ScreenReply {
        switch intent {
        case .submit?:
            isFiltering = false
            return .none
        case .cancel?:
            isFiltering = false
            filter = ""
            return .none
        case .moveDown?, .moveUp?:
            moveSelection(by: intent == .moveDown ? 1 : -1, rows(filter))
            return .none
        default:
            break
        }
        let before = filter
        guard filterField.type(key), filter != before else { return .none }
        let matches = rows(filter)
        if !matches.matching.isEmpty { selectedSubject = SubjectID(matches[0].subject) }
        return .none
    }

    /// The `y` confirmation for removing the selected entry, saying what the subject gets after.
    private func askRemoval(_ experiment: Experiment, _ rows: WhitelistRows) -> ScreenReply {
        guard !rows.matching.isEmpty, let subject = selectedSubject, experiment.whitelistEntry(for: subject.text) != nil else {
            return .show(.error("nothing to remove: no entry is selected"))
        }
        return Self.askRemoval(experiment, subject: subject.text)
    }

    /// The `y` confirmation for removing `subject` as `experiment` lists it now (or that it is no longer listed).
    static func askRemoval(_ experiment: Experiment, subject: String) -> ScreenReply {
        guard let entry = experiment.whitelistEntry(for: subject) else {
            return .show(.info("nothing to remove: `\(subject)` is no longer whitelisted in `\(experiment.key)`"))
        }
        var unlisted = experiment
        unlisted.whitelist = [:]
        let after = CompiledExperiment(unlisted).decide(for: Subject(userID: entry.subject, deviceID: entry.subject))
        let bucket = after.bucket.map { "bucket \($0), " } ?? ""
        return .present(.confirm(Confirmation(
            title: "Remove `\(entry.subject)` from the whitelist of `\(experiment.key)`?",
            lines: ["It is forced into `\(entry.variant)` (added by \(entry.addedBy), \(TimeLabel.utc(entry.addedAt))).",
                    "Afterwards it gets `\(after.variant)` (\(bucket)\(after.reason.rawValue))."],
            change: .whitelistRemove(experiment: experiment.key, subject: entry.subject),
            expectedRevision: experiment.revision)), status: .clear)
    }
}
