/// Layout facts of the store file that the reader and the writer must agree on.
package enum StoreLayout {
    /// What comes before a whitelist entry's line: a newline and eight spaces, after a comma but for the first.
    package static func entrySeparator(first: Bool) -> StaticString { first ? "\n        " : ",\n        " }

    /// A whitelist entry's line, what comes before each value in the order the writer puts them:
    /// `{"added_at": "…", "added_by": "…", "note": "…", "subject": "…", "variant": "…"}`.
    package enum WhitelistLine {
        package static let addedAt: StaticString = "{\"added_at\": "
        package static let addedBy: StaticString = ", \"added_by\": "
        package static let note: StaticString = ", \"note\": "
        package static let subject: StaticString = ", \"subject\": "
        package static let variant: StaticString = ", \"variant\": "
        package static let end: StaticString = "}"
    }

    /// What comes before a history entry's line: a newline and four spaces, after a comma but for the first.
    package static func historySeparator(first: Bool) -> StaticString { first ? "\n    " : ",\n    " }

    /// What follows the last history entry's line: the history array's closing bracket on its own line.
    package static let historyEnd: StaticString = "\n  ]"

    /// A history entry's line, what comes before each value in the order the writer puts them:
    /// `{"action": "…", "after": "…", "at": "…", "before": null, "experiment": "…", "operator": "…"}`
    /// (`after` and `before` are a string or `null`).
    package enum HistoryLine {
        package static let action: StaticString = "{\"action\": "
        package static let after: StaticString = ", \"after\": "
        package static let at: StaticString = ", \"at\": "
        package static let before: StaticString = ", \"before\": "
        package static let experiment: StaticString = ", \"experiment\": "
        package static let operatorName: StaticString = ", \"operator\": "
        package static let end: StaticString = "}"
    }
}
