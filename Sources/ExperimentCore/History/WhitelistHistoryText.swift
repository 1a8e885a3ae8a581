/// How whitelist changes read in the history: the whole entry before and after, and which subjects an import touched.
extension WhitelistEntry {
    /// `user-42=green note="QA account"`: the subject, its variant and its note (quoted, escaped).
    public var historyText: String { "\(subject)=\(variant) note=\(WhitelistEntry.quoted(note))" }

    /// `text` in double quotes with `"`, `\` and control characters escaped, so a note reads unambiguously.
    public static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case _ where Identifier.isControl(scalar): result += "\\u{\(String(scalar.value, radix: 16))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

/// The history text of a whitelist import: counts, then the subjects it added and replaced.
package enum ImportSummary {
    /// How many subjects an import's history entry names.
    package static let listedSubjects = 20

    /// `3 entries (2 new, 1 replaced); new: "u1", "u3"; replaced: "u2"`, plus `; 980 more` past the first 20.
    package static func text(counts: String, listed: [(subject: String, isNew: Bool)], total: Int) -> String {
        var parts = [counts]
        let added = listed.filter(\.isNew).map { WhitelistEntry.quoted($0.subject) }
        let replaced = listed.filter { !$0.isNew }.map { WhitelistEntry.quoted($0.subject) }
        if !added.isEmpty { parts.append("new: " + added.joined(separator: ", ")) }
        if !replaced.isEmpty { parts.append("replaced: " + replaced.joined(separator: ", ")) }
        if total > listed.count { parts.append("\(total - listed.count) more") }
        return parts.joined(separator: "; ")
    }
}
