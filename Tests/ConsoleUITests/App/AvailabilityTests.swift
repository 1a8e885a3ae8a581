import ExperimentCore
import ExperimentEditing
import Foundation
import Testing
@testable import ConsoleUI

/// One availability rule per action drives dispatch (an inapplicable key says why at once) and the key bar.
@Suite("Availability: dispatch and the key bar")
struct AvailabilityTests {
    typealias F = FormsFixture

    /// The key bar (last line) at 100×30.
    static func bar(_ state: AppState) -> String { F.screen(state).last ?? "" }

    @Test func resolvingADraftSaysWhyAtOnceAndOpensNoForm() throws {
        var state = try F.state(selecting: "search_v2")
        F.send([.enter], to: &state)
        #expect(F.send([.character("R")], to: &state) == [])
        #expect(state.overlay == nil)
        #expect(state.jobs.isEmpty, "no read of the logs for a form that does not open")
        #expect(state.message == .error("`search_v2` is a draft: start it before resolving"))
        #expect(F.screen(state)[28].hasPrefix(" `search_v2` is a draft: start it before resolving"))
    }

    @Test func startingARunningOnePausingAPausedOneSayAlreadyWithoutAConfirmation() throws {
        var state = try F.state(selecting: "checkout_button")
        #expect(F.send([.character("s")], to: &state) == [])
        #expect(state.overlay == nil)
        #expect(state.message == .error("`checkout_button` is already running"))
        var snapshot = state.snapshot
        try snapshot.apply(.pause(experiment: "checkout_button"), context: F.alice)
        state.snapshot = snapshot
        #expect(F.send([.character("p")], to: &state) == [])
        #expect(state.overlay == nil)
        #expect(state.message == .error("`checkout_button` is already paused"))
    }

    @Test func theDetailKeyBarShowsOnlyWhatApplies() throws {
        var running = try F.state(selecting: "checkout_button")
        F.send([.enter], to: &running)
        #expect(Self.bar(running) == " r ramp  w whitelist  e results  R resolve  p pause  H history  Esc/q back  ? help  i inspect")
        var draft = try F.state(selecting: "search_v2")
        F.send([.enter], to: &draft)
        #expect(Self.bar(draft) == " r ramp  w whitelist  e results  s start  H history  Esc/q back  ? help  i inspect")
        var resolved = try F.state(selecting: "paywall_copy")
        F.send([.enter], to: &resolved)
        #expect(Self.bar(resolved) == " w whitelist  e results  H history  Esc/q back  ? help  i inspect")
    }

    @Test func readOnlyKeyBarsAdvertiseNoWriteKeys() throws {
        var state = try F.state(selecting: "checkout_button", readOnly: true)
        #expect(Self.bar(state) == " Enter open  / filter  w whitelist  e results  q quit  ? help  i inspect")
        F.send([.enter], to: &state)
        #expect(Self.bar(state) == " w whitelist  e results  H history  Esc/q back  ? help  i inspect")
        F.send([.character("w")], to: &state)
        #expect(Self.bar(state) == " / filter  Esc/q back  ? help  i inspect")
        F.send([.character("a")], to: &state)
        #expect(state.overlay == nil)
        #expect(state.message?.text.hasPrefix("read-only console (opened with --read-only): cannot add to the whitelist") == true)
    }

    @Test func theListKeyBarWithWritesAndNothingSelected() throws {
        var state = try F.state(selecting: "checkout_button")
        #expect(Self.bar(state) == " Enter open  / filter  n new  r ramp  w whitelist  e results  q quit  ? help  i inspect")
        F.send([.character("/")] + F.typing("zzz") + [.enter], to: &state)
        #expect(state.list.selectedKey == nil)
        #expect(Self.bar(state) == " / filter  n new  q quit  ? help  i inspect")
        F.send([.character("r")], to: &state)
        #expect(state.message == .error("no experiment selected"))
    }

    @Test func theHelpOverlayListsUnavailableKeysDimmedWithTheReason() throws {
        var state = try F.state(selecting: "search_v2")
        _ = ConsoleUpdate.update(&state, .resized(width: 100, height: 30), now: Date(timeIntervalSince1970: 0))
        F.send([.enter, .character("?")], to: &state)
        let lines = HelpOverlay.lines(state)
        let resolve = try #require(lines.first { $0.key == "R" })
        #expect(resolve.kind == .binding(reason: "`search_v2` is a draft: start it before resolving"))
        #expect(resolve.text == "resolve")
        let index = try #require(lines.firstIndex(of: resolve))
        #expect(lines[index + 1] == HelpLine(kind: .reason, text: "off: `search_v2` is a draft: start it before"))
        #expect(lines[index + 2] == HelpLine(kind: .reason, text: "resolving"))
        #expect(F.screen(state).contains { $0.contains("│ R          resolve ") })
        #expect(F.screen(state).contains { $0.contains("│            off: `search_v2` is a draft: start it before") })
        #expect(lines.first { $0.key == "s" }?.kind == .binding(reason: nil))
    }

    @Test(arguments: Intent.allCases)
    func everyIntentButStartAndDeleteIsAvailableWithAWritableRunningExperiment(intent: Intent) throws {
        let state = try F.state(selecting: "checkout_button")
        let facts = AvailabilityFacts(state)
        let expected: Availability = switch intent {
        case .start: .unavailable("`checkout_button` is already running")
        case .deleteDraft: .unavailable("experiment `checkout_button` is running and has been served; only drafts can be deleted, because old clients keep asking for served experiments")
        default: .available
        }
        #expect(intent.availability(facts) == expected)
    }

    @Test func anEmptyStoreSuggestsNOnlyWhenItCanCreate() {
        for readOnly in [false, true] {
            let state = AppState(snapshot: StoreSnapshot(), storePath: "/tmp/experiments.json", operatorName: "carol", readOnly: readOnly)
            let screen = F.screen(state)
            #expect(screen.contains { $0.contains("press n to create one") } == !readOnly, "read-only: \(readOnly)")
            #expect(screen.contains { $0.contains("read-only: create them with `abconsole create`") } == readOnly)
        }
    }
}
