import ExperimentCore
import Testing
@testable import ConsoleUI

/// The list at the widths people use: keys whole, weights as numbers, columns that do not jump.
struct ListWidthTests {
    static let widths = [80, 90, 100, 120, 200]

    @Test(arguments: widths) func theListAt(width: Int) throws {
        let story = try StoryStore()
        let lines = story.screen(width: width, height: 16)
        Snapshot.assert(lines, named: "list-\(width)")
        for key in story.session.state.snapshot.experiments.keys {
            #expect(lines.contains { $0.dropFirst().hasPrefix(key + " ") }, "`\(key)` is shown whole at \(width) columns")
        }
        #expect(lines.contains { $0.contains(" 40/40/20 ") }, "the weights as numbers")
        #expect(lines.contains { $0.contains(" → discount_20 ") }, "a resolved experiment's winner whole")
        #expect(lines.contains { $0.contains(" 2026-06-03 08:00 UTC") }, "times say UTC")
    }

    @Test func columnsStayPutWithinABandAndGrowOnlyAtBreakpoints() {
        func starts(_ width: Int) -> ListColumns { ListColumns(width: width, longestKey: 22, widestWeights: 8) }
        #expect(starts(80) == ListColumns(width: 89, longestKey: 22, widestWeights: 8))
        #expect(starts(90).bar == 10 && starts(90).updatedBy == 0)
        #expect(starts(100).bar == 10 && starts(100).updatedBy == 12)
        #expect(starts(120).bar == 20 && starts(120).updatedBy == 12)
        #expect(starts(120).key == starts(200).key && starts(120).bar == starts(200).bar)
        #expect(starts(200).description > starts(160).description, "only the description widens")
        #expect(starts(80).description == 0 && starts(200).description > 0)
    }

    @Test func aLongKeyStaysWholeWhileOtherColumnsGiveWay() {
        let columns = ListColumns(width: 100, longestKey: 40, widestWeights: 8)
        #expect(columns.key == 40)
        #expect(columns.bar == 0 && columns.updatedBy == 0)
        let narrow = ListColumns(width: 80, longestKey: 40, widestWeights: 8)
        #expect(narrow.key == 40 && narrow.updated == 0 && narrow.type == 6 && narrow.whitelist == 5, "the update time gives way first")
        // A 64-character key at 80 columns: everything but the status gives way, in order, and the key stays whole.
        let longest = ListColumns(width: 80, longestKey: 64, widestWeights: 8)
        #expect(longest.key == 64 && longest.type == 0 && longest.weights == 0 && longest.whitelist == 0 && longest.updated == 0)
        #expect(ListColumns(width: 80, longestKey: 58, widestWeights: 8).weights == 8, "the weights stay while they fit")
        // Only a key longer than the terminal less the status is cut.
        #expect(ListColumns(width: 60, longestKey: 64, widestWeights: 8).key == 60 - (1 + 1 + 8))
    }

    /// A whitelist of 123,456 entries shows all six digits; the count never ends in "…".
    @Test func theWhitelistCountIsAsWideAsTheLargest() {
        let columns = ListColumns(width: 80, longestKey: 22, widestWeights: 8, widestWhitelist: 6)
        #expect(columns.whitelist == 6 && columns.key == 22)
        #expect(ListColumns(width: 80, longestKey: 22, widestWeights: 8, widestWhitelist: 1).whitelist == 5, "at least as wide as before")
    }

    @Test func filteringDoesNotChangeTheColumns() throws {
        let story = try StoryStore()
        let before = story.screen()[1]
        story.send(.character("/"))
        story.session.type("pay")
        #expect(story.screen()[2] == before, "the header keeps its place under the filter line")
    }
}
