import ExperimentCore

/// What a screen or form asks of the console after handling a key (its own state it has changed itself).
struct ScreenReply {
    /// What happens to the status bar.
    enum Status: Equatable { case keep, clear, show(StatusMessage) }

    var status = Status.keep
    /// Close the screen or form that answered.
    var close = false
    /// Open this form or confirmation (over the screen, or instead of the form that answered).
    var present: Overlay?
    /// Open this screen on top.
    var push: Screen?
    /// Start this work as a job (the form that answered is kept in the job, to reopen on failure).
    var work: Work?
    /// The whitelist screen below selects this subject (the one a form is adding).
    var selectSubject: SubjectID?
    /// Leave this intent to the action keys every browsing screen shares.
    var browse: Intent?
    /// Close the console with this exit code.
    var quit: Int32?

    /// Nothing more to do.
    static let none = ScreenReply()

    static func show(_ message: StatusMessage) -> ScreenReply { ScreenReply(status: .show(message)) }
    static func close(saying message: StatusMessage? = nil) -> ScreenReply {
        ScreenReply(status: message.map(Status.show) ?? .keep, close: true)
    }
    static func present(_ overlay: Overlay) -> ScreenReply { ScreenReply(present: overlay) }
    static func push(_ screen: Screen) -> ScreenReply { ScreenReply(push: screen) }
    static func start(_ work: Work) -> ScreenReply { ScreenReply(work: work) }
    static func browse(_ intent: Intent?) -> ScreenReply { ScreenReply(browse: intent) }
    static func quit(_ code: Int32) -> ScreenReply { ScreenReply(quit: code) }

    /// A refusal in the status bar, or `otherwise` when there is none.
    static func refuse(_ refusal: StatusMessage?, otherwise: () -> ScreenReply) -> ScreenReply {
        refusal.map(show) ?? otherwise()
    }
}
