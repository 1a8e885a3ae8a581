import ExperimentCore

/// The audit log, newest first, for all experiments or one (being built; see the owner of this file).
public struct HistoryScreen: Equatable, Sendable {
    /// The experiment shown, or nil for all.
    public var experimentKey: String?

    public init(experimentKey: String?) { self.experimentKey = experimentKey }
}

extension HistoryScreen {
    /// Handles a key while this is on top; returns the effects to perform.
    static func handle(_ key: Key, _ intent: Intent?, _ app: inout AppState) -> [Effect] {
        if intent == .cancel || intent == .back || intent == .deny { app.closeTop() }
        return []
    }

    /// Draws it into `area` of `buffer`.
    static func render(_ value: HistoryScreen, _ app: AppState, into buffer: inout ScreenBuffer, area: Rect) {
        buffer.write("HistoryScreen", x: area.x + 1, y: area.y + 1)
    }
}
