import Foundation

/// One status message as the message log (`L`) keeps it, with the time it was shown.
package struct LoggedMessage: Equatable, Sendable {
    package var message: StatusMessage
    package var at: Date
}

extension AppState {
    /// How many messages the log keeps, newest last.
    package static let messageLogLimit = 50

    /// Adds `message` to the log, dropping the oldest beyond the limit.
    mutating func log(_ message: StatusMessage, at time: Date) {
        messageLog.append(LoggedMessage(message: message, at: time))
        if messageLog.count > Self.messageLogLimit { messageLog.removeFirst(messageLog.count - Self.messageLogLimit) }
    }
}
