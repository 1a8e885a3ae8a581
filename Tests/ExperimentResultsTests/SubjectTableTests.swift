@testable import ResultsReading
import Testing

/// The subject table through growth: short (inline) and long ids, first exposure and variant kept.
@Suite struct SubjectTableTests {
    @Test func internsFindsAndKeepsStateThroughGrowth() {
        let table = SubjectTable(capacity: 4)
        let ids = (0..<50_000).map { $0 % 3 == 0 ? "a-much-longer-subject-identifier-\($0)" : "u\($0)" } + [""]
        for (index, id) in ids.enumerated() {
            var copy = id
            let (_, isNew) = copy.withUTF8 { table.intern($0, variant: Int16(index % 3), at: Int64(index)) }
            #expect(isNew)
        }
        #expect(table.count == ids.count)
        for (index, id) in ids.enumerated() {
            guard let slot = table.find(id) else {
                Issue.record("\(id) not found")
                return
            }
            #expect(table.index(at: slot) == index && table.variant(at: slot) == Int16(index % 3) && table.firstExposure(at: slot) == Int64(index))
            #expect(table.id(at: index) == id)
            var copy = id
            #expect(copy.withUTF8 { table.intern($0, variant: 0, at: 0) }.isNew == false)
        }
        #expect(table.find("u50001") == nil && table.find("a-much-longer-subject-identifier-50001") == nil)
        var seen = 0
        table.forEachSubject { _, _ in seen += 1 }
        #expect(seen == ids.count)
    }
}
