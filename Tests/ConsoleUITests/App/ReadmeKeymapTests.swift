import Foundation
import Testing
@testable import ConsoleUI

/// docs/keymap.md is the keybinding table, verbatim; `UPDATE_README=1` rewrites it.
struct ReadmeKeymapTests {
    static let keymap = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/keymap.md")
    static let start = "<!-- keymap:start -->\n"
    static let end = "<!-- keymap:end -->"

    @Test func docsKeymapMatchesTheTable() throws {
        let text = try String(contentsOf: Self.keymap, encoding: .utf8)
        let begin = try #require(text.range(of: Self.start))
        let finish = try #require(text.range(of: Self.end, range: begin.upperBound..<text.endIndex))
        let expected = KeyBindings.markdownTable() + "\n"
        if ProcessInfo.processInfo.environment["UPDATE_README"] == "1" {
            try text.replacingCharacters(in: begin.upperBound..<finish.lowerBound, with: expected)
                .write(to: Self.keymap, atomically: true, encoding: .utf8)
            return
        }
        #expect(String(text[begin.upperBound..<finish.lowerBound]) == expected,
                "docs/keymap.md differs from KeyBindings.all; run `UPDATE_README=1 swift test --filter ReadmeKeymapTests`")
    }

    @Test func everyBindingHasKeysAndHelpAndNoKeyIsBoundTwiceInAContext() {
        for context in BindingContext.allCases {
            let keys = KeyBindings.all.filter { $0.context == context }.flatMap(\.keys)
            #expect(Set(keys).count == keys.count, "a key is bound twice in \(context)")
        }
        #expect(KeyBindings.all.allSatisfy { !$0.keys.isEmpty && !$0.help.isEmpty && !$0.label.isEmpty })
    }
}
