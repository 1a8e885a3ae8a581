import ExperimentCore
import ExperimentStore
import Foundation
import Testing

@Suite struct WhitelistCSVTests {
    /// A spreadsheet's UTF-8 byte order mark became an invisible first character of the first subject.
    @Test func aByteOrderMarkIsNotPartOfTheFirstSubject() throws {
        let rows = try WhitelistCSV.parse(Data("\u{FEFF}user-1,treat\nuser-2,control\n".utf8))
        #expect(rows.map(\.subject) == ["user-1", "user-2"])
        let withHeader = try WhitelistCSV.parse(Data("\u{FEFF}subject,variant,note\nuser-1,treat,hi\n".utf8))
        #expect(withHeader.map(\.subject) == ["user-1"])
    }
}
