import ExperimentCore

/// What a screen or form asks of the console after handling a key (its own state it has changed itself):
/// a change to the status bar and one next step, so no reply can both push a screen and quit.
struct ScreenReply {
    /// What happens to the status bar.
    enum Status: Equatable { case keep, clear, show(StatusMessage) }

    /// The one thing the console does after the status bar.
    enum Next {
        /// Nothing more.
        case stay
        /// Close the screen or form that answered.
        case close
        /// Open this form or confirmation over the screen (`replacing`: instead of the form that answered),
        /// starting `reading` for it (the resolve form's evidence).
        case present(Overlay, replacing: Bool, reading: Work? = nil)
        /// Open this screen on top, starting `reading` for it (the results screen's read of the logs).
        case push(Screen, reading: Work?)
        /// Start this work as a job (a form that answered and is not `closing` is kept in the job, to
        /// reopen on failure); the whitelist screen below then selects `selecting` (the subject a form is adding).
        case start(Work, closing: Bool, selecting: SubjectID?)
        /// Ask this job to stop (a read of the logs the screen no longer waits for), closing the screen when `closing`.
        case giveUp(JobID, closing: Bool)
        /// Leave this intent to the action keys every browsing screen shares.
        case browse(Intent)
        /// Close the console with this exit code.
        case quit(Int32)

        /// Whether the screen or form that answered closes first.
        var closesAnswerer: Bool {
            switch self {
            case .close: true
            case .present(_, let replacing, _): replacing
            case .start(_, let closing, _), .giveUp(_, let closing): closing
            case .stay, .push, .browse, .quit: false
            }
        }
    }

    var status = Status.keep
    var next = Next.stay

    /// Nothing more to do.
    static let none = ScreenReply()

    static func show(_ message: StatusMessage) -> ScreenReply { ScreenReply(status: .show(message)) }
    static func close(saying message: StatusMessage? = nil) -> ScreenReply {
        ScreenReply(status: message.map(Status.show) ?? .keep, next: .close)
    }
    static func present(_ overlay: Overlay, status: Status = .keep, reading: Work? = nil) -> ScreenReply {
        ScreenReply(status: status, next: .present(overlay, replacing: false, reading: reading))
    }
    /// The form that answered gives way to `overlay` (a form to its confirmation, a confirmation back to its form).
    static func replace(with overlay: Overlay, status: Status = .keep) -> ScreenReply {
        ScreenReply(status: status, next: .present(overlay, replacing: true))
    }
    static func push(_ screen: Screen, reading: Work? = nil) -> ScreenReply { ScreenReply(next: .push(screen, reading: reading)) }
    static func start(_ work: Work, status: Status = .keep, closing: Bool = false, selecting subject: SubjectID? = nil) -> ScreenReply {
        ScreenReply(status: status, next: .start(work, closing: closing, selecting: subject))
    }
    static func giveUp(_ job: JobID, closing: Bool = false) -> ScreenReply { ScreenReply(next: .giveUp(job, closing: closing)) }
    static func browse(_ intent: Intent?) -> ScreenReply { intent.map { ScreenReply(next: .browse($0)) } ?? .none }
    static func quit(_ code: Int32) -> ScreenReply { ScreenReply(next: .quit(code)) }

    /// A refusal in the status bar, or `otherwise` when there is none.
    static func refuse(_ refusal: StatusMessage?, otherwise: () -> ScreenReply) -> ScreenReply {
        refusal.map(show) ?? otherwise()
    }

    /// This reply with the form that answered closed first (a stale confirmation asking its question again).
    var closingAnswerer: ScreenReply {
        var reply = self
        switch next {
        case .stay, .close: reply.next = .close
        case .present(let overlay, _, let reading): reply.next = .present(overlay, replacing: true, reading: reading)
        case .start(let work, _, let subject): reply.next = .start(work, closing: true, selecting: subject)
        case .giveUp(let job, _): reply.next = .giveUp(job, closing: true)
        case .push, .browse, .quit: break  // not asked of a form
        }
        return reply
    }
}
