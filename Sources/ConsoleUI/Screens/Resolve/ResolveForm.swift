import ExperimentCore

/// The resolve form: pick the winner, type the key to confirm (being built; see the owner of this file).
public struct ResolveForm: Equatable, Sendable {
    public var experimentKey: String
    public var revision: Int

    public init(_ experiment: Experiment) {
        experimentKey = experiment.key
        revision = experiment.revision
    }
}

extension ResolveForm {
    /// Handles a key while this is on top; returns the effects to perform.
    static func handle(_ key: Key, _ intent: Intent?, _ app: inout AppState) -> [Effect] {
        if intent == .cancel || intent == .back || intent == .deny { app.closeTop() }
        return []
    }

    /// Draws it into `area` of `buffer`.
    static func render(_ value: ResolveForm, _ app: AppState, into buffer: inout ScreenBuffer, area: Rect) {
        buffer.write("ResolveForm", x: area.x + 1, y: area.y + 1)
    }
}
