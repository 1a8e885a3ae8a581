extension Confirmation {
    /// `y` saves the change on the revision shown (or, when the experiment changed meanwhile, asks
    /// again with the fresh numbers); `n`/`Esc` goes back to the form that asked.
    func handle(_ intent: Intent?, _ context: ScreenContext) -> ScreenReply {
        switch intent {
        case .confirm? where stale != nil:
            return askedAgain(context)
        case .confirm?:
            return .start(.apply(change, expectedRevision: expectedRevision))
        case .deny?, .cancel?, .back?:
            return returnTo.map { .replace(with: $0, status: .show(.info("nothing changed"))) } ?? .close(saying: .info("nothing changed"))
        default:
            return .none
        }
    }
}
