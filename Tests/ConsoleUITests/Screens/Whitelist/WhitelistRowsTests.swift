import ExperimentCore
import Foundation
import Testing
@testable import ConsoleUI

@Suite("Whitelist rows: order and filter")
struct WhitelistRowsTests {
    static let subjects = [
        "user-10", "user-1", "user-2", "User-3", "", "a", "ab", "a b", "zz", "é", "e\u{301}", "日本語", "😀",
        "partner-0000000000000000-b", "partner-0000000000000000-a", "partner-0000000000000000", "partner-00000000",
        "~tilde", "x\u{7F}", "user-1000000000000000001", "user-100000000000000000",
    ]

    @Test func subjectOrderIsTheByteOrderOfSubjectID() {
        let entries = Self.subjects.map { WhitelistEntry(subject: $0, variant: "v", note: "", addedBy: "a", addedAt: Date(timeIntervalSince1970: 0)) }
        let sorted = SubjectOrder.sorted(entries.reversed()).map { SubjectID($0.subject) }
        let expected = Self.subjects.map { SubjectID($0) }.sorted()
        #expect(sorted == expected)
        for a in Self.subjects {
            for b in Self.subjects {
                #expect(SubjectOrder.precedes(a, b) == (SubjectID(a) < SubjectID(b)), "\(a) vs \(b)")
            }
        }
    }

    @Test func needleMatchesASCIILettersInAnyCaseAndOtherTextExactly() {
        #expect(FilterNeedle("QA").matches("partner qa"))
        #expect(FilterNeedle("qa").matches("QA-bot"))
        #expect(!FilterNeedle("qa").matches("q-a"))
        #expect(FilterNeedle("é").matches("café"))
        #expect(!FilterNeedle("É").matches("café"))
        #expect(FilterNeedle("").matches("anything"))
        #expect(FilterNeedle("partner").narrows(FilterNeedle("ART")))
        #expect(!FilterNeedle("par").narrows(FilterNeedle("partner")))
    }

    @Test func rowsNarrowAndRestoreEarlierMatches() throws {
        var experiment = try #require(try ScreenFixtures.snapshot().experiments["account_add_funds"])
        var rows = WhitelistRows()
        let built = rows.update(for: experiment, filter: "")
        let rebuilt = rows.update(for: experiment, filter: "")
        #expect(built && !rebuilt)
        #expect(rows.subjects == ["qa-bot", "user-1", "user-9"])
        rows.update(for: experiment, filter: "t")
        #expect(rows.subjects == ["qa-bot", "user-1", "user-9"])
        rows.update(for: experiment, filter: "tre")
        #expect(rows.subjects == ["qa-bot", "user-1"])
        rows.update(for: experiment, filter: "t")
        #expect(rows.subjects == ["qa-bot", "user-1", "user-9"])
        #expect(rows.position(of: "user-2") == 2)
        #expect(rows.position(of: "a") == 0)
        experiment.revision += 1
        experiment.whitelist[SubjectID("user-0")] = WhitelistEntry(subject: "user-0", variant: "control", note: "", addedBy: "b", addedAt: Date())
        #expect(!rows.isCurrent(for: experiment, filter: "t"))
        rows.update(for: experiment, filter: "t")
        #expect(rows.subjects == ["qa-bot", "user-0", "user-1", "user-9"])
    }
}
