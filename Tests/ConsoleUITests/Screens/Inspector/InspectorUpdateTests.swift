import ExperimentCore
import Foundation
import Testing
@testable import ConsoleUI

@Suite("Subject inspector: update")
struct InspectorUpdateTests {
    typealias F = ScreenFixtures

    static func screen(_ state: AppState) -> InspectorScreen? {
        if case .inspector(let screen)? = state.stack.last { return screen }
        return nil
    }

    @Test func typingTabAndEnterRunTheInspectionOnTheFocusedExperiment() throws {
        var state = try F.state()
        F.send([.character("j"), .character("i")], to: &state)
        #expect(state.stack == [.inspector(InspectorScreen())])
        #expect(state.bindingContext == .inspector)
        // Printable characters type, even those bound elsewhere (`i`, `q`, `?`, `j`).
        F.send(F.typing("user-42?iqj") + [.backspace, .backspace, .backspace, .backspace], to: &state)
        F.send([.tab] + F.typing("device-7f3a"), to: &state)
        var expected = InspectorScreen()
        expected.userID = TextField("user-42")
        expected.deviceID = TextField("device-7f3a")
        expected.focus = .device
        #expect(Self.screen(state) == expected)
        F.send([.enter], to: &state)
        expected.subject = Subject(userID: "user-42", deviceID: "device-7f3a")
        expected.selectedKey = "app_color_scheme"
        expected.focus = .table
        #expect(Self.screen(state) == expected)
        #expect(state.bindingContext == .inspectorTable)
        F.send([.down], to: &state)
        expected.selectedKey = "new_flow"
        #expect(Self.screen(state) == expected)
        F.send([.up, .up, .up], to: &state)
        expected.selectedKey = "account_add_funds"
        #expect(Self.screen(state) == expected)
        F.send([.pageDown], to: &state)
        expected.selectedKey = "old_banner"
        #expect(Self.screen(state) == expected)
        F.send([.tab], to: &state)
        expected.focus = .user
        expected.userID.selectAll()
        #expect(Self.screen(state) == expected)
        F.send([.escape], to: &state)
        #expect(state.stack.isEmpty)
        #expect(state.lastInspector == expected, "Esc keeps the ids, the run and the selection for the next `i`")
    }

    /// A hand-edited store can change an experiment without changing the revision; the decisions follow it.
    @Test func aReloadWithTheSameRevisionButOtherContentIsInspectedAgain() throws {
        var state = try F.state()
        let rows = RowCache()
        F.send([.character("i")] + F.typing("user-42") + [.enter], to: &state, rows: rows)
        let subject = Self.screen(state)?.subject
        let before = try #require(rows.decisions(state.snapshot, subject: subject).first { $0.experiment == "account_add_funds" })
        #expect(before.reason != .paused)
        var edited = state.snapshot
        edited.experiments["account_add_funds"]?.status = .paused
        #expect(edited.revision == state.snapshot.revision)
        _ = ConsoleUpdate.update(&state, .storeReloaded(edited), now: Date(timeIntervalSince1970: 0), rows: rows)
        let after = try #require(rows.decisions(state.snapshot, subject: subject).first { $0.experiment == "account_add_funds" })
        #expect(after.reason == .paused)
        #expect(after.variant == "control")
    }

    @Test func enterWithoutIdsExplains() throws {
        var state = try F.state()
        F.send([.character("i"), .enter], to: &state)
        #expect(Self.screen(state)?.problem == "type a user id and/or a device id, then press Enter")
        #expect(Self.screen(state)?.subject == nil)
    }

    @Test func controlCharactersAreRefusedWithAClearMessage() throws {
        var state = try F.state()
        F.send([.character("i")] + F.typing("user-1") + [.enter], to: &state)
        #expect(Self.screen(state)?.subject == Subject(userID: "user-1"))
        F.send([.tab, .end, .character("\u{7}"), .enter], to: &state)  // Tab selects the field; End keeps its text
        #expect(Self.screen(state)?.problem == "user id `user-1\u{7}` is not valid: use 1–256 characters without control characters")
        #expect(Self.screen(state)?.subject == nil)
        let lines = F.screen(state)
        #expect(lines.contains { $0.contains(#"user id `user-1\x07` is not valid"#) })
        #expect(!lines.contains { $0.contains("EXPERIMENT") })
    }

    @Test func iOpensFromTheDetailAndPreselectsThatExperiment() throws {
        var state = try F.state()
        F.send([.character("G"), .enter, .character("i")] + F.typing("u") + [.enter], to: &state)
        #expect(state.stack.first == .detail(key: "old_banner"))
        #expect(Self.screen(state)?.selectedKey == "old_banner")
    }
}
