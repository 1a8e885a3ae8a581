/// One line of the help panel: a heading, a key with what it does, or a logged message.
struct HelpLine: Equatable {
    enum Kind: Equatable {
        case heading, blank
        /// A binding; `reason` says why its action does not apply now.
        case binding(reason: String?)
        /// Why the binding above does not apply now, under its text.
        case reason
        /// A line of a logged message (`key` is its time on the first line, empty after).
        case message(isError: Bool)
    }

    var kind: Kind
    var key = ""
    var text = ""

    static let blank = HelpLine(kind: .blank)

    static func heading(_ text: String) -> HelpLine { HelpLine(kind: .heading, text: text) }

    /// What `/` searches.
    var searchText: String { key + " " + text }
}
