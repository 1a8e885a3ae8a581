import ExperimentCore

/// The whitelist screen of one experiment: entries with a filter (being built; see the owner of this file).
public struct WhitelistScreen: Equatable, Sendable {
    public var experimentKey: String

    public init(experimentKey: String) { self.experimentKey = experimentKey }
}

extension WhitelistScreen {
    /// Handles a key while this is on top; returns the effects to perform.
    static func handle(_ key: Key, _ intent: Intent?, _ app: inout AppState) -> [Effect] {
        if intent == .cancel || intent == .back || intent == .deny { app.closeTop() }
        return []
    }

    /// Draws it into `area` of `buffer`.
    static func render(_ value: WhitelistScreen, _ app: AppState, into buffer: inout ScreenBuffer, area: Rect) {
        buffer.write("WhitelistScreen", x: area.x + 1, y: area.y + 1)
    }
}
