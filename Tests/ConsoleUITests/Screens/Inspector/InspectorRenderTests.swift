import ExperimentCore
import Testing
@testable import ConsoleUI

@Suite("Subject inspector: render")
struct InspectorRenderTests {
    typealias F = ScreenFixtures

    @Test func beforeARunItExplainsWhatToType() throws {
        var state = try F.state()
        F.send([.character("i")], to: &state)
        Snapshot.assert(F.screen(state), named: "inspector-empty")
    }

    @Test func tableStripAndMarkerForAUser() throws {
        var state = try F.state()
        F.send([.character("i")] + F.typing("user-1") + [.enter], to: &state)
        let lines = F.screen(state)
        Snapshot.assert(lines, named: "inspector-user-1")
        let index = AssignmentIndex(state.snapshot)
        for experiment in state.snapshot.sortedExperiments {
            let decision = try #require(index.decide(experiment.key, for: Subject(userID: "user-1")))
            let row = try #require(lines.first { $0.dropFirst().hasPrefix(experiment.key + " ") })
            let words = row.split(separator: " ").map(String.init)
            #expect(words.contains(decision.variant))
            #expect(words.contains(decision.reason.rawValue))
            #expect(words.dropLast().last == decision.bucket.map(String.init) ?? "—", "then the payload, — for none")
        }
        // account_add_funds is selected: user-1 is whitelisted there; the strip marks bucket 6471.
        #expect(lines.contains { $0.contains("▲ bucket 6471 of 10000") })
        let strip = try #require(lines.firstIndex { $0.contains("▲") }) - 1
        #expect(lines[strip].count == 100)
        #expect(lines[strip].hasPrefix(String(repeating: "█", count: 50) + String(repeating: "▓", count: 50)))
    }

    @Test func stripShowsUnallocatedBucketsAndAMissingDevice() throws {
        var state = try F.state()
        F.send([.character("i")] + F.typing("user-1") + [.enter, .down], to: &state)
        let lines = F.screen(state)
        #expect(lines.contains { $0.contains("no device id given: this experiment buckets by device id, so it serves the control `light`") })
        #expect(lines.contains(String(repeating: "█", count: 40) + String(repeating: "▓", count: 40) + String(repeating: "·", count: 20)))
        #expect(!lines.contains { $0.contains("▲") })
    }
}
