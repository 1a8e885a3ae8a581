import Glibc
import Synchronization

/// The last terminating signal received, or 0; the only state the signal handler touches.
private let receivedSignal = Atomic<Int32>(0)

/// Turns SIGINT, SIGTERM and SIGHUP into a flag the run loop polls, so the terminal is
/// always restored before the process exits.
enum SignalFlag {
    /// Installs the handlers; call before the screen opens (ncurses then leaves them alone).
    static func install() {
        // Initialise the global now: lazy initialisation inside a handler is not signal-safe.
        _ = receivedSignal.load(ordering: .relaxed)
        StandardStreams.handle([SIGINT, SIGTERM, SIGHUP], with: recordSignal)
    }

    /// The number of the signal received since `install`, if any.
    static var received: Int32? {
        let number = receivedSignal.load(ordering: .acquiring)
        return number == 0 ? nil : number
    }
}

/// The handler: stores the number and nothing else (async-signal-safe).
private func recordSignal(_ number: Int32) {
    receivedSignal.store(number, ordering: .releasing)
}
