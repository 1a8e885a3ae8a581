import ExperimentCore

/// The ramp editor: one weight field per variant, with a live preview of what moves (being built; see the owner of this file).
public struct RampEditor: Equatable, Sendable {
    public var experimentKey: String
    public var revision: Int

    /// An editor for `experiment`, the first field focused.
    public init(_ experiment: Experiment) {
        experimentKey = experiment.key
        revision = experiment.revision
    }
}

extension RampEditor {
    /// Handles a key while this is on top; returns the effects to perform.
    static func handle(_ key: Key, _ intent: Intent?, _ app: inout AppState) -> [Effect] {
        if intent == .cancel || intent == .back || intent == .deny { app.closeTop() }
        return []
    }

    /// Draws it into `area` of `buffer`.
    static func render(_ value: RampEditor, _ app: AppState, into buffer: inout ScreenBuffer, area: Rect) {
        buffer.write("RampEditor", x: area.x + 1, y: area.y + 1)
    }
}
