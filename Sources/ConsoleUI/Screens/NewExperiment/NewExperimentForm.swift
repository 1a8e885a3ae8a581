import ExperimentCore

/// The new experiment form: key, type, variants with weights, description (being built; see the owner of this file).
public struct NewExperimentForm: Equatable, Sendable {
    public init() {}
}

extension NewExperimentForm {
    /// Handles a key while this is on top; returns the effects to perform.
    static func handle(_ key: Key, _ intent: Intent?, _ app: inout AppState) -> [Effect] {
        if intent == .cancel || intent == .back || intent == .deny { app.closeTop() }
        return []
    }

    /// Draws it into `area` of `buffer`.
    static func render(_ value: NewExperimentForm, _ app: AppState, into buffer: inout ScreenBuffer, area: Rect) {
        buffer.write("NewExperimentForm", x: area.x + 1, y: area.y + 1)
    }
}
