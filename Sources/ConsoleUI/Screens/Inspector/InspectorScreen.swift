import ExperimentCore

/// The subject inspector: user and device id in, a decision per experiment out (being built; see the owner of this file).
public struct InspectorScreen: Equatable, Sendable {
    public init() {}
}

extension InspectorScreen {
    /// Handles a key while this is on top; returns the effects to perform.
    static func handle(_ key: Key, _ intent: Intent?, _ app: inout AppState) -> [Effect] {
        if intent == .cancel || intent == .back || intent == .deny { app.closeTop() }
        return []
    }

    /// Draws it into `area` of `buffer`.
    static func render(_ value: InspectorScreen, _ app: AppState, into buffer: inout ScreenBuffer, area: Rect) {
        buffer.write("InspectorScreen", x: area.x + 1, y: area.y + 1)
    }
}
