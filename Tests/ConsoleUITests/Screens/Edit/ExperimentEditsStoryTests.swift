import ExperimentCore
import Foundation
import Testing
@testable import ConsoleUI

/// The edits the CLI can make, made from the console over a real store.
@Suite("Experiment edits: stories")
struct ExperimentEditsStoryTests {
    /// The status bar line.
    func status(_ store: StoryStore) -> String { store.screen()[StoryStore.height - 2] }

    @Test func dThenYDeletesADraft() throws {
        let store = try StoryStore.opened("paywall_type")
        store.send(.character("D"))
        #expect(store.screen().contains { $0.contains("Delete the draft paywall_type?") })
        #expect(store.session.state.bindingContext == .confirm)
        store.send(.character("y"))
        #expect(try store.saved().experiments["paywall_type"] == nil)
        #expect(try store.saved().history.last.map { [$0.action.rawValue, $0.operatorName] } == ["delete", StoryStore.operatorName])
        #expect(store.session.state.screen == .list, "the detail of a deleted experiment closes")
        #expect(status(store).hasPrefix(" deleted draft `paywall_type`"))
    }

    @Test func dThenNKeepsTheDraft() throws {
        let store = try StoryStore.opened("paywall_type")
        store.send(.character("D"), .character("n"))
        #expect(try store.saved().experiments["paywall_type"] != nil)
        #expect(store.session.state.overlay == nil)
    }

    @Test func deletingAServedExperimentIsRefusedAtOnceWithTheCoresReason() throws {
        let store = try StoryStore.opened("account_add_funds")
        store.send(.character("D"))
        #expect(store.session.state.overlay == nil)
        let reason = ExperimentError.deleteServed(experiment: "account_add_funds", status: .running).message
        #expect(store.session.state.message == .error(reason))
    }

    @Test func vAddsAVariantWithAPayload() throws {
        let store = try StoryStore.opened("account_add_funds")
        store.send(.character("v"))
        #expect(store.screen().contains { $0.contains("Add a variant to account_add_funds") })
        store.session.type("quick_add")
        store.send(.tab)
        store.session.type(#"{"cta":"Add"}"#)
        store.send(.enter)
        let saved = try #require(try store.saved().experiments["account_add_funds"])
        let added = try #require(saved.variants.last)
        #expect(added.name == "quick_add" && added.weight == .zero && added.payload == .object(["cta": .string("Add")]))
        #expect(store.session.state.overlay == nil)
        #expect(status(store).hasPrefix(" added variant `quick_add` to `account_add_funds` at 0 %"))
    }

    @Test func aBadPayloadIsShownInTheFormAndNothingIsSaved() throws {
        let store = try StoryStore.opened("account_add_funds")
        let before = try store.bytes()
        store.send(.character("v"))
        store.session.type("quick_add")
        store.send(.tab)
        store.session.type("{cta:1}")
        store.send(.enter)
        guard case .variant(let form)? = store.session.state.overlay else { throw FixtureError(message: "the form closed") }
        #expect(form.problem == JSONValue.ParseError.invalid.message(for: "{cta:1}"))
        #expect(form.focus == .payload && form.payload.isAllSelected)
        #expect(try store.bytes() == before)
    }

    @Test func aCoreRefusalReopensTheFormWithTheWholeReason() throws {
        let store = try StoryStore.opened("account_add_funds")
        store.send(.character("v"))
        store.session.type("control")
        store.send(.enter)
        guard case .variant(let form)? = store.session.state.overlay else { throw FixtureError(message: "the form closed") }
        #expect(form.name.text == "control", "the form comes back as typed")
        #expect(store.session.state.message?.isError == true)
        #expect(store.session.state.message?.text.contains(ExperimentError.duplicateVariant("control").message) == true)
    }

    @Test func capitalPSetsAndClearsAPayload() throws {
        let store = try StoryStore.opened("app_color_scheme")
        store.send(.character("P"))
        guard case .variant(let form)? = store.session.state.overlay else { throw FixtureError(message: "no form") }
        #expect(form.variantName == "classic" && form.payload.isAllSelected)
        #expect(form.payload.text == ##"{"accent":"#0a84ff","background":"#ffffff"}"##, "the field starts from the current payload")
        store.send(.right)
        store.send(.tab)
        store.session.type(##"{"accent":"#000000"}"##)
        store.send(.enter)
        var saved = try #require(try store.saved().experiments["app_color_scheme"])
        #expect(saved.variant(named: "dark")?.payload == .object(["accent": .string("#000000")]))

        store.send(.character("P"), .right, .right, .tab, .backspace, .enter)
        saved = try #require(try store.saved().experiments["app_color_scheme"])
        #expect(saved.variant(named: "high_contrast")?.payload == nil, "an emptied payload clears it")
        #expect(status(store).hasPrefix(" cleared the payload of `high_contrast`"))
    }

    @Test func capitalEEditsTheDescription() throws {
        let store = try StoryStore.opened("cash_projection_banner")
        store.send(.character("E"))
        guard case .textEdit(let form)? = store.session.state.overlay else { throw FixtureError(message: "no form") }
        #expect(form.field.isAllSelected && form.field.text.hasPrefix("Show the 30-day cash projection banner"))
        store.send(.end)
        store.session.type(" (Q4)")
        store.send(.enter)
        let saved = try #require(try store.saved().experiments["cash_projection_banner"])
        #expect(saved.description == form.original + " (Q4)")
        let entry = try #require(try store.saved().history.last)
        #expect(entry.action == .setDescription && entry.before == form.original && entry.after == saved.description)
        #expect(status(store).hasPrefix(" changed the description of `cash_projection_banner`"))
    }

    @Test func capitalNEditsTheSelectedEntrysNote() throws {
        let store = try StoryStore.opened("account_add_funds")
        store.send(.character("w"))
        let experiment = try #require(try store.saved().experiments["account_add_funds"])
        guard case .whitelist(let screen) = store.session.state.screen, let subject = screen.selectedSubject,
              let entry = experiment.whitelistEntry(for: subject.text) else { throw FixtureError(message: "no selected entry") }
        store.send(.character("N"))
        #expect(store.screen().contains { $0.contains("Whitelist note in account_add_funds") })
        store.send(.control("u"))
        store.session.type("QA device, keep")
        store.send(.enter)
        let saved = try #require(try store.saved().experiments["account_add_funds"]?.whitelistEntry(for: subject.text))
        #expect(saved.note == "QA device, keep" && saved.variant == entry.variant)
        #expect(status(store).hasPrefix(" changed the note of `\(subject.text)` in the whitelist of `account_add_funds`"))
    }

    @Test func aReadOnlyConsoleRefusesEveryEditAtOnce() throws {
        let store = try StoryStore.opened("paywall_type", readOnly: true)
        for (key, what) in [("D", "delete an experiment"), ("v", "add a variant"), ("P", "set a payload"), ("E", "edit the description")] {
            store.send(.character(Character(key)))
            #expect(store.session.state.overlay == nil, "\(key)")
            #expect(store.session.state.message?.text.hasPrefix("read-only console (opened with --read-only): cannot \(what)") == true, "\(key)")
        }
        store.send(.character("w"), .character("N"))
        #expect(store.session.state.overlay == nil)
        #expect(store.session.state.message?.text.hasPrefix("read-only console (opened with --read-only): cannot edit a whitelist note") == true)
    }

    @Test func aResolvedExperimentRefusesNewVariantsAndPayloads() throws {
        let store = try StoryStore.opened("iap_discount")
        store.send(.character("v"))
        #expect(store.session.state.message == .error(ExperimentError.resolvedIsFrozen(experiment: "iap_discount", what: "its variants").message))
        store.send(.character("P"))
        #expect(store.session.state.message == .error(ExperimentError.resolvedIsFrozen(experiment: "iap_discount", what: "its payloads").message))
        #expect(store.session.state.overlay == nil)
    }

    @Test func aLongDescriptionScrollsInItsField() throws {
        let store = try StoryStore.opened("cash_projection_banner")
        store.send(.character("E"), .end)
        store.session.type(" — and a much longer explanation that keeps going past the right edge of the box")
        Snapshot.assert(store.screen(), named: "edit-description-scrolled")
        store.send(.home)
        let line = try #require(store.screen().first { $0.contains("description ▏") })
        #expect(line.contains("▏Show the 30-day") && line.contains("…"), "Home shows the start, … marks the hidden rest")
    }

    @Test func thePayloadFormShowsTheVariantsAndTheChosenOnesPayload() throws {
        let store = try StoryStore.opened("app_color_scheme")
        store.send(.character("P"), .right)
        Snapshot.assert(store.screen(), named: "edit-payload-dark")
    }
}
