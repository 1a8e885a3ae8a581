extension AppState {
    /// Hands a key to the screen on top, the one dispatch for every `Screen`: the screen changes its
    /// own value and answers. The list, the root, keeps its value in `list`; the results screen changes
    /// the read it shows, `results` (the resolve form's evidence and the read job share it); the other
    /// screens keep theirs in their case in `stack`.
    mutating func handleOnScreen(_ key: Key, _ intent: Intent?, _ context: ScreenContext) -> ScreenReply {
        switch screen {
        case .list:
            return list.handle(key, intent, context)
        case .results(let experimentKey):
            return ResultsScreen.handle(intent, of: experimentKey, &results, context)
        case .detail:
            return intent == .back || intent == .quit ? .close() : .browse(intent)
        case .whitelist(var value):
            defer { stack[stack.count - 1] = .whitelist(value) }
            return value.handle(key, intent, context)
        case .history(var value):
            defer { stack[stack.count - 1] = .history(value) }
            return value.handle(key, intent, context)
        case .inspector(var value):
            defer { stack[stack.count - 1] = .inspector(value) }
            return value.handle(key, intent, context)
        }
    }
}
