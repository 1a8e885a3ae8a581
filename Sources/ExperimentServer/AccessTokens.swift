import Foundation

/// The tokens of `serve --tokens FILE` (SPEC §13): one `NAME TOKEN` a line, blank lines and `#`
/// comments allowed. A request shows a token; the access log names the token's NAME, never the token.
package struct AccessTokens: Sendable, Equatable {
    struct Entry: Sendable, Equatable {
        let name: String
        let token: [UInt8]
    }

    let entries: [Entry]

    /// Why a tokens file cannot be used, in one sentence; `isMissing` when it could not be read at all.
    package struct Problem: Error, Equatable {
        package let message: String
        package let isMissing: Bool
    }

    /// Reads and checks the file at `path`.
    package static func read(_ path: String) -> Result<AccessTokens, Problem> {
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(Problem(message: "cannot read the tokens file \(path); create it with one `NAME TOKEN` line per client", isMissing: true))
        }
        return parse(data, source: path)
    }

    /// The tokens in `data` (the text of the file `source`), or the first problem found.
    static func parse(_ data: Data, source: String) -> Result<AccessTokens, Problem> {
        guard let text = String(data: data, encoding: .utf8) else {
            return .failure(Problem(message: "the tokens file \(source) is not UTF-8 text", isMissing: false))
        }
        var entries: [Entry] = []
        for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if fields.isEmpty || fields[0].hasPrefix("#") { continue }
            func refuse(_ why: String) -> Result<AccessTokens, Problem> {
                .failure(Problem(message: "the tokens file \(source) line \(offset + 1): \(why)", isMissing: false))
            }
            guard fields.count == 2 else { return refuse("expected `NAME TOKEN` (two words), found \(fields.count)") }
            let name = String(fields[0]), token = Array(fields[1].utf8)
            guard token.count >= 16 else { return refuse("the token of \(name) is \(token.count) characters; use at least 16 (e.g. `openssl rand -hex 24`)") }
            guard token.allSatisfy({ $0 > 0x20 && $0 < 0x7F }), name.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                return refuse("names and tokens are printable ASCII without spaces")
            }
            guard !entries.contains(where: { $0.name == name }) else { return refuse("the name \(name) is given twice") }
            guard !entries.contains(where: { $0.token == token }) else { return refuse("the token of \(name) is also another name's; give each client its own") }
            entries.append(Entry(name: name, token: token))
        }
        guard !entries.isEmpty else {
            return .failure(Problem(message: "the tokens file \(source) names no token; add one `NAME TOKEN` line per client", isMissing: false))
        }
        return .success(AccessTokens(entries: entries))
    }

    /// The name of the token a request shows (`Authorization: Bearer T` or `X-API-Key: T`), or nil.
    ///
    /// Every entry is compared, each in time that depends only on the lengths, so the time taken
    /// tells nothing of how much of a token was right or which one matched.
    func name(of shown: String) -> String? {
        let shown = Array(shown.utf8)
        var found: String?
        for entry in entries where AccessTokens.equalInConstantTime(entry.token, shown) {
            found = entry.name
        }
        return found
    }

    /// Whether `a` equals `b`, looking at every byte of `a` whatever the first difference.
    static func equalInConstantTime(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count) | (a.count == b.count ? 0 : 1)
        for index in a.indices {
            difference |= a[index] ^ (index < b.count ? b[index] : 0)
        }
        return difference == 0
    }
}
