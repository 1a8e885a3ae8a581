extension Confirmation {
    /// `y` saves the change on the revision shown; `n`/`Esc` goes back to the form that asked.
    func handle(_ intent: Intent?) -> ScreenReply {
        switch intent {
        case .confirm?:
            return .start(.apply(change, expectedRevision: expectedRevision))
        case .deny?, .cancel?, .back?:
            return ScreenReply(status: .show(.info("nothing changed")), close: true, present: returnTo)
        default:
            return .none
        }
    }
}
