import ExperimentCore
import Testing
@testable import ConsoleUI

/// The inspector's table: payloads, `Enter` opening an experiment, the ids kept across `Esc`.
struct InspectorTableTests {
    @Test func theTableShowsThePayloadOfTheServedVariant() throws {
        let story = try StoryStore()
        story.send(.character("i"))
        story.session.type("user-42")
        story.send(.tab)
        story.session.type("device-7f3a")
        story.send(.enter)
        let lines = story.screen()
        Snapshot.assert(lines, named: "inspector-payloads")
        let index = AssignmentIndex(story.session.state.snapshot)
        let subject = Subject(userID: "user-42", deviceID: "device-7f3a")
        for experiment in story.session.state.snapshot.sortedExperiments {
            let decision = try #require(index.decide(experiment.key, for: subject))
            let payload = experiment.variants.first { $0.name == decision.variant }?.payload?.compactText ?? "—"
            let row = try #require(lines.first { $0.dropFirst().hasPrefix(experiment.key + " ") })
            #expect(row.contains("   " + payload.prefix(10)), "\(experiment.key) serves \(decision.variant)")
        }
        #expect(lines.contains { $0.hasPrefix(" purchase_button_color") && $0.contains(##"{"color":"#"##) })
        story.send(.character("G"))
        #expect(story.screen().contains { $0.hasPrefix(##" purchase_button_color · payload {"color":"#34c759"} · buckets 0–9999"##) },
                "the selected row's payload in full")
    }

    @Test func enterOnARowOpensThatExperimentAndEscComesBack() throws {
        let story = try StoryStore()
        story.send(.character("i"))
        story.session.type("user-42")
        story.send(.enter)
        #expect(story.session.state.bindingContext == .inspectorTable)
        #expect(story.screen().last?.hasPrefix(" Enter open  Tab edit ids  Esc/q back") == true)
        story.send(.character("j"), .character("j"), .enter)
        #expect(story.session.state.screen == .detail(key: "cash_projection_banner"))
        story.send(.escape)
        guard case .inspector(let inspector) = story.session.state.screen else {
            Issue.record("Esc on the detail returns to the inspector")
            return
        }
        #expect(inspector.selectedKey == "cash_projection_banner")
        #expect(inspector.userID.text == "user-42")
    }

    @Test func theIdsStayWhenTheInspectorIsLeftAndOpenedAgain() throws {
        let story = try StoryStore()
        story.send(.character("i"))
        story.session.type("user-42")
        story.send(.enter, .escape)
        #expect(story.session.state.stack.isEmpty)
        story.send(.character("i"))
        let lines = story.screen()
        #expect(lines[1].hasPrefix(" user id user-42▏"), "the field is focused again, with the id typed before")
        #expect(lines.contains { $0.hasPrefix("▷account_add_funds") }, "the last run is still shown")
        story.send(.enter)
        #expect(story.session.state.bindingContext == .inspectorTable)
    }

    @Test func iOnAWhitelistRowOfADeviceExperimentFillsTheDeviceId() throws {
        let story = try StoryStore()
        story.send(.character("j"), .character("w"), .character("i"))
        guard case .inspector(let inspector) = story.session.state.screen else {
            Issue.record("`i` on the whitelist opens the inspector")
            return
        }
        #expect(inspector.deviceID.text == "device-7f3a")
        #expect(inspector.userID.text == "")
        #expect(inspector.subject == Subject(deviceID: "device-7f3a"))
        #expect(inspector.selectedKey == "app_color_scheme")
        #expect(story.screen().contains { $0.hasPrefix("▶app_color_scheme") && $0.contains("whitelisted") })
    }
}
