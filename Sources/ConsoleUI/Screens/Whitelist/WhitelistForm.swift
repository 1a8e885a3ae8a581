import ExperimentCore

/// The whitelist add form: subject, variant, note (being built; see the owner of this file).
public struct WhitelistForm: Equatable, Sendable {
    public var experimentKey: String
    public var revision: Int

    public init(_ experiment: Experiment) {
        experimentKey = experiment.key
        revision = experiment.revision
    }
}

extension WhitelistForm {
    /// Handles a key while this is on top; returns the effects to perform.
    static func handle(_ key: Key, _ intent: Intent?, _ app: inout AppState) -> [Effect] {
        if intent == .cancel || intent == .back || intent == .deny { app.closeTop() }
        return []
    }

    /// Draws it into `area` of `buffer`.
    static func render(_ value: WhitelistForm, _ app: AppState, into buffer: inout ScreenBuffer, area: Rect) {
        buffer.write("WhitelistForm", x: area.x + 1, y: area.y + 1)
    }
}
