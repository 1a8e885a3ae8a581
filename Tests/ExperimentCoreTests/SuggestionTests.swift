import Foundation
import ExperimentCore
import Testing

/// Did-you-mean: Damerau–Levenshtein within a threshold that grows with the word.
@Suite struct SuggestionTests {
    @Test(arguments: [
        ("lsit", ["list", "show", "start"], ["list"]),
        ("--jsn", ["--json", "--store", "--status"], ["--json"]),
        ("app_colour_scheme", ["app_color_scheme", "account_add_funds"], ["app_color_scheme"]),
        ("ad", ["add", "remove", "list", "import"], ["add"]),
        ("sh", ["show", "start"], ["show"]),
        ("strat", ["start", "status"], ["start"]),
        ("zzz", ["list", "show"], []),
        ("checkout", ["checkout_button_colour_v2"], ["checkout_button_colour_v2"]),
        ("paywal", ["paywall_type"], ["paywall_type"]),
        ("list", ["list"], []),
        ("", ["list"], []),
    ])
    func closest(word: String, names: [String], expected: [String]) {
        #expect(Suggestions.closest(to: word, among: names) == expected)
    }

    @Test func tiesAreAllOfferedInOrder() {
        #expect(Suggestions.closest(to: "sart", among: ["start", "part", "cart", "smart"]) == ["cart", "part", "smart"])
        #expect(Suggestions.hint(for: "lsit", among: ["list"]) == "; did you mean `list`?")
        #expect(Suggestions.hint(for: "zzz", among: ["list"]) == "")
    }
}

/// Times for people: UTC, labelled, whatever the process's zone.
@Suite struct TimeLabelTests {
    @Test func utcIsLabelled() {
        let date = Date(timeIntervalSince1970: 1_772_359_200) // 2026-03-01T10:00:00Z
        #expect(TimeLabel.utc(date) == "2026-03-01 10:00:00 UTC")
        #expect(TimeLabel.utcMinutes(date) == "2026-03-01 10:00 UTC")
    }
}
