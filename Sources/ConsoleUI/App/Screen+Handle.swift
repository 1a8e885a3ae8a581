extension Screen {
    /// Hands a key to a screen above the list; it changes itself and answers (the list's state is `AppState.list`).
    mutating func handle(_ key: Key, _ intent: Intent?, _ context: ScreenContext) -> ScreenReply {
        switch self {
        case .list, .results:
            // The list's value is `AppState.list`; the results screen's is `AppState.results` (see `ResultsScreen.handle`).
            return .none
        case .detail:
            return intent == .back || intent == .quit ? .close() : .browse(intent)
        case .whitelist(var value):
            defer { self = .whitelist(value) }
            return value.handle(key, intent, context)
        case .history(var value):
            defer { self = .history(value) }
            return value.handle(key, intent, context)
        case .inspector(var value):
            defer { self = .inspector(value) }
            return value.handle(key, intent, context)
        }
    }
}
