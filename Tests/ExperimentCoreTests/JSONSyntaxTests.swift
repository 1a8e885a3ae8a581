import Foundation
import Testing
@testable import ExperimentCore

/// The line and column of a store's first JSON syntax error.
@Suite struct JSONSyntaxTests {
    @Test(arguments: [
        ("{\n  \"a\": 1\n  \"b\": 2\n}\n", "line 3, column 3: expected `,` or `}`"),
        ("{\"a\": \"unterminated\n}", "line 1, column 20: a string is not closed before the end of the line"),
        ("", "line 1, column 1: the file ends early; expected a value"),
        ("{\"a\": [1, 2", "line 1, column 12: the file ends early; expected `,` or `]`"),
        ("[1, 2,]", "line 1, column 7: expected a value, not `]` (a trailing comma?)"),
        ("{\"é\": tru}", "line 1, column 7: expected a value (did you mean `true`?)"),
        ("{\"a\": 01}", "line 1, column 7: a number cannot start with 0"),
        ("{\"a\": 1} x", "line 1, column 10: unexpected text after the end of the document"),
        ("{\"a\" 1}", "line 1, column 6: expected `:` after an object key"),
        ("{\"a\": \"\\q\"}", "line 1, column 8: an unknown escape in a string"),
        ("{\n<<<<<<< HEAD\n  \"a\": 1\n=======\n  \"a\": 2\n>>>>>>> other\n}", "line 2, column 1: a merge conflict marker `<<<<<<<`; " + JSONSyntax.conflictMarkerAdvice),
        ("{\"a\": 1,\n=======\n}", "line 2, column 1: a merge conflict marker `=======`; " + JSONSyntax.conflictMarkerAdvice),
    ])
    func firstProblem(text: String, expected: String) {
        #expect(JSONSyntax.firstProblem(in: Data(text.utf8))?.text == expected)
    }

    @Test(arguments: ["{}", "[]", "\u{FEFF}{\"a\": [1, -2.5e+3, true, false, null, \"\\u00e9\\n\"]}", " {\"a\": {\"b\": []}} \n"])
    func wellFormedJSONHasNoProblem(text: String) {
        #expect(JSONSyntax.firstProblem(in: Data(text.utf8)) == nil)
    }

    @Test func deepNestingDoesNotOverflow() {
        let deep = String(repeating: "[", count: 200_000)
        #expect(JSONSyntax.firstProblem(in: Data(deep.utf8))?.message == "the file ends early; expected a value or `]`")
    }
}
