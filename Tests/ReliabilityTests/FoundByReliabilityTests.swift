import ExperimentCore
import ExperimentStore
import Foundation
import Testing

/// Regressions for what the crash, corpus and fuzz harnesses found in the core.
@Suite struct FoundByReliabilityTests {
    private static let context = ChangeContext(operatorName: "tester", now: TempStore.t0)

    /// A store whose revisions were set to Int.max loaded as valid, and the next change trapped on overflow.
    @Test func revisionsNearIntMaxAreInvalidAndNeverTrap() throws {
        let store = try TempStore()
        try store.createRunning()
        let valid = String(decoding: try #require(store.bytes()), as: UTF8.self)
        // The experiment's revision comes first in the file, the store's last.
        for (label, backwards) in [("experiment", false), ("store", true)] {
            let text = valid.replacingOnce("\"revision\": 2,", with: "\"revision\": 9223372036854775807,", backwards: backwards)
            #expect(text != valid, "the \(label) revision was replaced")
            #expect(throws: StoreError.self, "a \(label) revision of Int.max is refused on load") {
                try StoreFile.decode(Data(text.utf8), path: "s.json")
            }
        }
        // The largest accepted revision: the next change is refused as invalid, not a trap.
        let atMax = valid.replacingOnce("\"revision\": 2,", with: "\"revision\": 9007199254740991,")
        try Data(atMax.utf8).write(to: URL(fileURLWithPath: store.path))
        _ = try store.file.load()
        #expect(throws: StoreError.self) {
            try store.file.apply(.pause(experiment: "checkout"), context: Self.context)
        }
        #expect(store.bytes() == Data(atMax.utf8))
    }

    /// A spreadsheet's UTF-8 byte order mark became an invisible first character of the first subject.
    @Test func aByteOrderMarkIsNotPartOfTheFirstSubject() throws {
        let rows = try WhitelistCSV.parse(Data("\u{FEFF}user-1,treat\nuser-2,control\n".utf8))
        #expect(rows.map(\.subject) == ["user-1", "user-2"])
        let withHeader = try WhitelistCSV.parse(Data("\u{FEFF}subject,variant,note\nuser-1,treat,hi\n".utf8))
        #expect(withHeader.map(\.subject) == ["user-1"])
    }

    /// Foundation reports a bad date at the enclosing object and a non-integer number as "not valid JSON".
    @Test(arguments: [
        ("\"created_at\": \"2026-03-01T10:00:00Z\"", "\"created_at\": \"yesterday\"", "$.experiments[0].created_at: expected an ISO 8601 date"),
        ("\"revision\": 2,", "\"revision\": 2.5,", "$.experiments[0].revision: 2.5 is not a whole number"),
        ("10000]]", "100000000000000000000]]", "$.experiments[0].variants[1].ranges[0][1]: 100000000000000000000 is not a whole number"),
    ])
    func problemsNameTheField(original: String, broken: String, expected: String) throws {
        let store = try TempStore()
        try store.createRunning()
        let text = String(decoding: try #require(store.bytes()), as: UTF8.self)
        #expect(text.contains(original))
        let error = #expect(throws: StoreError.self) {
            try StoreFile.decode(Data(text.replacingOnce(original, with: broken).utf8), path: "s.json")
        }
        #expect(error?.message.contains(expected) == true, "\(String(describing: error?.message))")
    }
}

extension String {
    /// The string with the first (or last) occurrence of `target` replaced.
    func replacingOnce(_ target: String, with replacement: String, backwards: Bool = false) -> String {
        guard let range = range(of: target, options: backwards ? .backwards : []) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
