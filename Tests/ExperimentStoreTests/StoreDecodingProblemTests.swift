import ExperimentCore
import ExperimentEditing
import ExperimentStore
import ExperimentTestSupport
import Foundation
import Testing

/// Broken stores are refused with the field named, and never trap.
@Suite struct StoreDecodingProblemTests {
    /// The bytes of a running experiment `checkout` (revision 2) in a store of revision 2.
    static func runningStore() throws -> String {
        String(decoding: StoreFile.encode(try Fixture.snapshot(status: .running)), as: UTF8.self)
    }

    /// A store whose revisions were set to Int.max loaded as valid, and the next change trapped on overflow.
    @Test func revisionsNearIntMaxAreInvalidAndNeverTrap() throws {
        let valid = try Self.runningStore()
        // The experiment's revision comes first in the file, the store's last.
        for (label, backwards) in [("experiment", false), ("store", true)] {
            let text = valid.replacingOnce("\"revision\": 2,", with: "\"revision\": 9223372036854775807,", backwards: backwards)
            #expect(text != valid, "the \(label) revision was replaced")
            #expect(throws: StoreError.self, "a \(label) revision of Int.max is refused on load") {
                try StoreFile.decode(Data(text.utf8), path: "s.json")
            }
        }
        // The largest accepted revision: the next change is refused as invalid, not a trap.
        let directory = try TempDirectory()
        defer { directory.remove() }
        let path = directory.path("experiments.json")
        let atMax = Data(valid.replacingOnce("\"revision\": 2,", with: "\"revision\": 9007199254740991,").utf8)
        try atMax.write(to: URL(fileURLWithPath: path))
        let store = StoreFile(path: path)
        _ = try store.load()
        #expect(throws: StoreError.self) { try store.apply(.pause(experiment: "checkout"), context: Fixture.bob) }
        #expect(FileManager.default.contents(atPath: path) == atMax)
    }

    /// Foundation reports a bad date at the enclosing object and a non-integer number as "not valid JSON".
    @Test(arguments: [
        ("\"created_at\": \"2026-01-01T00:00:00Z\"", "\"created_at\": \"yesterday\"", "$.experiments[0].created_at: expected an ISO 8601 date"),
        ("\"revision\": 2,", "\"revision\": 2.5,", "$.experiments[0].revision: 2.5 is not a whole number"),
        ("10000]]", "100000000000000000000]]", "$.experiments[0].variants[1].ranges[0][1]: 100000000000000000000 is not a whole number"),
    ])
    func problemsNameTheField(original: String, broken: String, expected: String) throws {
        let text = try Self.runningStore()
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
