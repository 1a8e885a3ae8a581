import ExperimentCore
import ExperimentEditing
import Testing
@testable import ConsoleUI

@Suite("New experiment form: update")
struct NewExperimentFormUpdateTests {
    typealias F = FormsFixture

    /// The keys that fill the whole form: key, type (→ device), variants, description.
    static let filling: [Key] = F.typing("banner_copy") + [.tab, .right, .tab] + F.typing("control=40, short=30,long=30") + [.tab]
        + F.typing("Shorter banner copy")

    @Test func nOpensAnEmptyFormWithTheKeyFocused() throws {
        var state = try F.state()
        #expect(F.send([.character("n")], to: &state) == [])
        #expect(state.overlay == .newExperiment(NewExperimentForm()))
        let form = NewExperimentForm()
        #expect(form.focus == .key && form.type == .user && form.key.text.isEmpty && form.variants.text.isEmpty && form.problem == nil)
    }

    @Test func fieldsAreFilledTabMovesAndArrowsCycleTheType() throws {
        var state = try F.state()
        F.send([.character("n")] + Self.filling, to: &state)
        var expected = NewExperimentForm()
        expected.key = TextField("banner_copy")
        expected.type = .device
        expected.variants = TextField("control=40, short=30,long=30")
        expected.description = TextField("Shorter banner copy")
        expected.focus = .description
        #expect(state.overlay == .newExperiment(expected))
        F.send([.right, .tab], to: &state)
        expected.focus = .key
        expected.key.selectAll()
        #expect(state.overlay == .newExperiment(expected), "arrows only cycle on the type field; Tab wraps to the key")
        F.send([.backTab, .backTab, .backTab, .left, .character("u")], to: &state)
        expected.focus = .type
        expected.type = .user
        expected.description.selectAll()
        expected.variants.selectAll()
        #expect(state.overlay == .newExperiment(expected), "on the type field, a letter picks the type it starts")
    }

    @Test func enterCreatesADraftWithoutAnExpectedRevision() throws {
        var state = try F.state()
        let effects = F.send([.character("n")] + Self.filling + [.enter], to: &state)
        let draft = ExperimentDraft(key: "banner_copy", type: .device,
                                    variants: [("control", F.pct(40)), ("short", F.pct(30)), ("long", F.pct(30))],
                                    description: "Shorter banner copy")
        #expect(effects.map(\.work) == [.apply(.create(draft), expectedRevision: nil)])
    }

    /// The problem Enter shows for a form typed with `key` and `variants`, and the field it focuses.
    func problem(key: String, variants: String) throws -> (String?, NewExperimentForm.Field?, [Effect]) {
        var state = try F.state()
        let effects = F.send([.character("n")] + F.typing(key) + [.tab, .tab] + F.typing(variants) + [.enter], to: &state)
        guard case .newExperiment(let form)? = state.overlay else { return (nil, nil, effects) }
        return (form.problem, form.focus, effects)
    }

    @Test func parseErrorsAreShownInTheFormWithoutSaving() throws {
        let cases: [(String, String, String, NewExperimentForm.Field)] = [
            ("", "a=50", "type a key for the experiment, e.g. checkout_button", .key),
            ("Bad Key", "a=50", "`Bad Key` is not a valid experiment key; use 1–64 characters from a-z, 0-9, `_`, `.`, `-`, starting with a letter or digit", .key),
            ("checkout_button", "a=50", "experiment `checkout_button` already exists; pick another key", .key),
            ("x", "", "type the variants with their weights, e.g. control=50,treatment=50", .variants),
            ("x", "control", "`control` is not name=weight; write the variants as control=50,treatment=50", .variants),
            ("x", "control=abc", "`control`: weight `abc` is not a percentage (use a number such as 12.5)", .variants),
            ("x", "control=1.234", "`control`: weight `1.234` has more than two decimals (0.01 % is the smallest step)", .variants),
            ("x", "Control=50", "`Control` is not a valid variant name; use 1–64 characters from a-z, 0-9, `_`, `.`, `-`, starting with a letter or digit", .variants),
            ("x", "a=50,a=20", "variant `a` is named twice; each variant needs its own name", .variants),
            ("x", "a=60,b=50.5", "the weights of `x` would add up to 110.5 %; they may add up to 100 % at most", .variants),
        ]
        for (key, variants, message, field) in cases {
            let (problem, focus, effects) = try problem(key: key, variants: variants)
            #expect(problem == message, "key \(key), variants \(variants)")
            #expect(focus == field, "key \(key), variants \(variants)")
            #expect(effects == [], "key \(key), variants \(variants)")
        }
    }

    @Test func theNextKeyClearsTheProblem() throws {
        var state = try F.state()
        F.send([.character("n"), .enter, .character("x")], to: &state)
        guard case .newExperiment(let form)? = state.overlay else { throw FixtureError(message: "no form") }
        #expect(form.problem == nil && form.key.text == "x")
    }

    @Test func afterTheCreateTheListSelectsTheNewExperimentAndClearsAFilterHidingIt() throws {
        var state = try F.state()
        state.list.filter = "paywall"
        state.list.selectedKey = "paywall_copy"
        let effects = F.send([.character("n")] + Self.filling + [.enter], to: &state)
        guard case .apply(let change, _)? = effects.first?.work else { throw FixtureError(message: "no change") }
        var snapshot = state.snapshot
        let outcome = try snapshot.apply(change, context: F.alice)
        F.finishJob(.saved(message: outcome.message, snapshot: snapshot), &state)
        #expect(state.overlay == nil)
        #expect(state.list.selectedKey == "banner_copy")
        #expect(state.list.filter == "")
        #expect(state.message == .info("created draft `banner_copy` (control=40,short=30,long=30)"))
    }

    @Test func aRefusedCreateKeepsTheFormOpenForFixing() throws {
        var state = try F.state()
        let effects = F.send([.character("n")] + Self.filling + [.enter], to: &state)
        #expect(effects.count == 1)
        let form = state.jobs.first?.returnTo
        #expect(state.overlay == nil, "the form closes while it saves")
        F.finishJob(.failed(message: "cannot write /tmp/experiments.json: permission denied", snapshot: nil), &state)
        #expect(state.overlay == form)
        #expect(state.list.selectedKey == "checkout_button")
        #expect(state.message == .error("cannot write /tmp/experiments.json: permission denied"))
    }

    @Test func creatingReadOnlyIsRefused() throws {
        var state = try F.state(readOnly: true)
        F.send([.character("n")], to: &state)
        #expect(state.overlay == nil)
        #expect(state.message == .error("read-only console (opened with --read-only): cannot create an experiment; restart without --read-only to make changes"))
    }

    @Test func escClosesTheForm() throws {
        var state = try F.state()
        F.send([.character("n")] + F.typing("abc") + [.escape], to: &state)
        #expect(state.overlay == nil)
        #expect(state.message == .info("no experiment created"))
    }
}
