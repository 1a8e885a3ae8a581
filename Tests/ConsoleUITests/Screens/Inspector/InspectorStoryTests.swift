import ExperimentCore
import ExperimentEditing
import Foundation
import Testing
@testable import ConsoleUI

@Suite("Subject inspector and history: stories")
struct InspectorStoryTests {
    typealias F = ScreenFixtures

    @Test func inspectorAgreesWithTheCoreDecisions() throws {
        let (session, store, directory) = try F.session()
        defer { try? FileManager.default.removeItem(at: directory) }
        session.send(.character("i"))
        session.type("user-42")
        session.send(.enter)
        let lines = session.render(width: 100, height: 30).lines()
        let index = AssignmentIndex(try store.load())
        for key in ["account_add_funds", "app_color_scheme", "new_flow", "old_banner"] {
            let decision = try #require(index.decide(key, for: Subject(userID: "user-42")))
            let row = try #require(lines.first { $0.dropFirst().hasPrefix(key + " ") })
            let words = row.split(separator: " ").map(String.init)
            #expect(Array(words.dropLast().suffix(3)) == [decision.variant, decision.reason.rawValue, decision.bucket.map(String.init) ?? "—"])
        }
        // SPEC §2 vector: account_add_funds / user-42 → bucket 1165, in control's [0, 5000).
        #expect(lines.contains { $0.contains("▲ bucket 1165 of 10000") })
        #expect(lines.contains(" bucket 1165 is owned by `control`"))
    }

    @Test func inspectorFollowsAnExternalChange() throws {
        let (session, store, directory) = try F.session()
        defer { try? FileManager.default.removeItem(at: directory) }
        session.send(.character("i"))
        session.type("user-1")
        session.send(.enter)
        #expect(session.render(width: 100, height: 30).lines()[5].hasSuffix("▓ treatment          whitelisted   6471   —"), "no payload")
        try store.apply(.whitelistRemove(experiment: "account_add_funds", subject: "user-1"),
                        context: ChangeContext(operatorName: "carol", now: F.noon))
        session.tick()
        let lines = session.render(width: 100, height: 30).lines()
        #expect(lines[5].hasSuffix("▓ treatment          bucketed      6471   —"))
        #expect(lines.contains(" bucket 6471 is owned by `treatment`"))
    }

    @Test func historyTogglesBetweenOneExperimentAndAll() throws {
        let (session, _, directory) = try F.session()
        defer { try? FileManager.default.removeItem(at: directory) }
        session.send(.enter)
        session.send(.character("H"))
        var lines = session.render(width: 100, height: 30).lines()
        #expect(lines[1].hasPrefix(" history of `account_add_funds` · 5 changes, newest first · a: all experiments"))
        session.send(.character("a"))
        lines = session.render(width: 100, height: 30).lines()
        #expect(lines[1].hasPrefix(" history of all experiments · 12 changes, newest first · a: only `account_add_funds`"))
        #expect(lines.contains { $0.contains("old_banner") })
        session.send(.character("a"))
        lines = session.render(width: 100, height: 30).lines()
        #expect(lines[1].hasPrefix(" history of `account_add_funds`"))
        #expect(!lines.contains { $0.contains("old_banner") })
    }
}
