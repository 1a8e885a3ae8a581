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
}
