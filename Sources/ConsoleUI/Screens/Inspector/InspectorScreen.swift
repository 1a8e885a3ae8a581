import ExperimentCore

/// The subject inspector: a user id and/or a device id in, every experiment's decision out.
package struct InspectorScreen: Equatable, Sendable {
    /// Where the keys go: one of the two id fields, or the decision table (after a run); `Tab` cycles.
    package enum Field: Equatable, Sendable { case user, device, table }

    package var userID = TextField()
    package var deviceID = TextField()
    package var focus = Field.user
    /// The subject of the last run; nil before the first `Enter` or when the ids were refused.
    package var subject: Subject?
    /// Why the last `Enter` could not run.
    package var problem: String?
    /// The experiment selected in the table; its bucket strip is drawn.
    package var selectedKey: String?

    package init() {}

    /// The inspector of one whitelisted subject of `experiment` (in the id field of its type), already run.
    init(subject id: String, of experiment: Experiment, _ context: ScreenContext) {
        if experiment.type == .device { deviceID = TextField(id) } else { userID = TextField(id) }
        focus = experiment.type == .device ? .device : .user
        selectedKey = experiment.key
        run(context)
    }

    /// The subject the fields describe now (empty fields are missing ids).
    var typedSubject: Subject {
        Subject(userID: userID.text.isEmpty ? nil : userID.text, deviceID: deviceID.text.isEmpty ? nil : deviceID.text)
    }

    /// Which bindings apply: the fields take text, the table browses.
    var bindingContext: BindingContext { focus == .table ? .inspectorTable : .inspector }
}

extension InspectorScreen {
    /// The decision rows shown in an area `bodyHeight` rows high (below the fields, the subject line,
    /// the table header, and above the bucket strip).
    static func visibleRows(bodyHeight: Int) -> Int {
        max(1, bodyHeight - 4 - stripHeight)
    }

    /// Handles a key while this is on top; in a field, keys no binding claims type into it.
    mutating func handle(_ key: Key, _ intent: Intent?, _ context: ScreenContext) -> ScreenReply {
        let page = Self.visibleRows(bodyHeight: context.bodyHeight)
        switch intent {
        case .back?, .cancel?, .quit?:
            return .close()
        case .nextField?:
            focus = focus == .user ? .device : focus == .device && subject != nil ? .table : .user
            selectFocusedField()
        case .previousField?:
            focus = focus == .device ? .user : focus == .user && subject != nil ? .table : .device
            selectFocusedField()
        case .inspect? where focus == .table:
            focus = .user
            selectFocusedField()
        case .submit?:
            run(context)
        case .open?:
            if let key = selectedKey, subject != nil, context.snapshot.experiments[key] != nil { return .push(.detail(key: key)) }
        case .moveDown?: moveSelection(by: 1, context)
        case .moveUp?: moveSelection(by: -1, context)
        case .top?: moveSelection(by: -Int.max / 2, context)
        case .bottom?: moveSelection(by: Int.max / 2, context)
        case .pageDown?: moveSelection(by: page, context)
        case .pageUp?: moveSelection(by: -page, context)
        case nil:
            switch focus {
            case .user: userID.type(key)
            case .device: deviceID.type(key)
            case .table: break
            }
        default:
            return .browse(intent)
        }
        return .none
    }

    /// Checks the ids and runs the inspection, selecting the experiment the user came from; the
    /// table then takes the keys (`Enter` opens the selected experiment).
    private mutating func run(_ context: ScreenContext) {
        let subject = typedSubject
        problem = subject.userID == nil && subject.deviceID == nil ? "type a user id and/or a device id, then press Enter" : nil
        for (label, id) in [("user id", subject.userID), ("device id", subject.deviceID)] {
            guard problem == nil, let id, !Identifier.isValidSubject(id) else { continue }
            problem = "\(label) `\(id)` is not valid: use 1–256 characters without control characters"
        }
        guard problem == nil else {
            self.subject = nil
            return
        }
        self.subject = subject
        if selectedKey.map({ context.snapshot.experiments[$0] == nil }) ?? true {
            selectedKey = context.focusedExperiment?.key ?? context.snapshot.sortedExperiments.first?.key
        }
        if !context.snapshot.experiments.isEmpty { focus = .table }
    }

    /// Selects the experiment `offset` rows away in the table (clamped); only once a subject was run.
    private mutating func moveSelection(by offset: Int, _ context: ScreenContext) {
        guard subject != nil else { return }
        let keys = context.snapshot.sortedExperiments.map(\.key)
        guard !keys.isEmpty else { return }
        let current = selectedKey.flatMap { keys.firstIndex(of: $0) } ?? 0
        selectedKey = keys[min(max(current + offset, 0), keys.count - 1)]
    }

    /// Selects the whole text of the id field that has the focus, so typing replaces it (as every form's fields do).
    private mutating func selectFocusedField() {
        switch focus {
        case .user: userID.selectAll()
        case .device: deviceID.selectAll()
        case .table: break
        }
    }
}
