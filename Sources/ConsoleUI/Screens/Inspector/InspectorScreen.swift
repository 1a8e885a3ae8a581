import ExperimentCore
import ExperimentStore

/// The subject inspector: a user id and/or a device id in, every experiment's decision out.
public struct InspectorScreen: Equatable, Sendable {
    /// The two id fields; `Tab` switches.
    public enum Field: Equatable, Sendable { case user, device }

    public var userID = TextField()
    public var deviceID = TextField()
    public var focus = Field.user
    /// The subject of the last run; nil before the first `Enter` or when the ids were refused.
    public var subject: Subject?
    /// Why the last `Enter` could not run.
    public var problem: String?
    /// The experiment selected in the table; its bucket strip is drawn.
    public var selectedKey: String?
    /// The decisions for `subject`, derived from the store (not part of equality).
    var results = InspectorResults()

    public init() {}

    public static func == (lhs: InspectorScreen, rhs: InspectorScreen) -> Bool {
        lhs.userID == rhs.userID && lhs.deviceID == rhs.deviceID && lhs.focus == rhs.focus && lhs.subject == rhs.subject
            && lhs.problem == rhs.problem && lhs.selectedKey == rhs.selectedKey
    }

    /// The subject the fields describe now (empty fields are missing ids).
    var typedSubject: Subject {
        Subject(userID: userID.text.isEmpty ? nil : userID.text, deviceID: deviceID.text.isEmpty ? nil : deviceID.text)
    }
}

extension InspectorScreen {
    /// Rows PgUp/PgDn move in the table.
    static let page = 10

    /// Handles a key while this is on top; returns the effects to perform.
    static func handle(_ key: Key, _ intent: Intent?, _ app: inout AppState) -> [Effect] {
        guard case .inspector(var screen)? = app.stack.last else { return [] }
        switch intent {
        case .back?, .cancel?, .quit?:
            app.closeTop()
            return []
        case .nextField?, .previousField?:
            screen.focus = screen.focus == .user ? .device : .user
        case .submit?:
            screen.run(app)
        case .moveDown?: screen.moveSelection(by: 1, app)
        case .moveUp?: screen.moveSelection(by: -1, app)
        case nil:
            switch key {
            case .backTab: screen.focus = screen.focus == .user ? .device : .user
            case .pageDown: screen.moveSelection(by: page, app)
            case .pageUp: screen.moveSelection(by: -page, app)
            default:
                if screen.focus == .user { screen.userID.type(key) } else { screen.deviceID.type(key) }
            }
        default:
            break
        }
        app.stack[app.stack.count - 1] = .inspector(screen)
        return []
    }

    /// Checks the ids and runs the inspection, selecting the experiment the user came from.
    private mutating func run(_ app: AppState) {
        let subject = typedSubject
        problem = subject.userID == nil && subject.deviceID == nil ? "type a user id and/or a device id, then press Enter" : nil
        for (label, id) in [("user id", subject.userID), ("device id", subject.deviceID)] {
            guard problem == nil, let id, !Identifier.isValidSubject(id) else { continue }
            problem = "\(label) `\(id)` is not valid: use 1–256 characters without control characters"
        }
        guard problem == nil else {
            self.subject = nil
            results.update(for: app.snapshot, subject: nil)
            return
        }
        self.subject = subject
        results.update(for: app.snapshot, subject: subject)
        if selectedKey.map({ app.snapshot.experiments[$0] == nil }) ?? true {
            selectedKey = app.focusedExperiment?.key ?? app.snapshot.sortedExperiments.first?.key
        }
    }

    /// Selects the experiment `offset` rows away in the table (clamped); only once a subject was run.
    private mutating func moveSelection(by offset: Int, _ app: AppState) {
        guard subject != nil else { return }
        let keys = app.snapshot.sortedExperiments.map(\.key)
        guard !keys.isEmpty else { return }
        let current = selectedKey.flatMap { keys.firstIndex(of: $0) } ?? 0
        selectedKey = keys[min(max(current + offset, 0), keys.count - 1)]
    }
}

extension InspectorScreen {
    /// Recomputes the decisions of the inspector on top when the store changed (see `refreshScreenCaches`).
    static func refreshCache(_ app: inout AppState) {
        guard case .inspector(var screen)? = app.stack.last, !screen.results.isCurrent(for: app.snapshot, subject: screen.subject) else { return }
        screen.results.update(for: app.snapshot, subject: screen.subject)
        app.stack[app.stack.count - 1] = .inspector(screen)
    }
}
