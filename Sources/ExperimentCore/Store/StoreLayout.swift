/// Layout facts of the store file that the reader and the writer must agree on.
package enum StoreLayout {
    /// What comes before a whitelist entry's line: a newline and eight spaces, after a comma but for the first.
    package static func entrySeparator(first: Bool) -> StaticString { first ? "\n        " : ",\n        " }
}
