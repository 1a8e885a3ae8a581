import ExperimentCore
import Testing
@testable import ConsoleUI

/// Whole screens at 100×30 with the forms open (`RECORD_SNAPSHOTS=1` re-records).
@Suite("Forms: render")
struct FormsRenderTests {
    typealias F = FormsFixture

    func screen(after keys: [Key], selecting key: String = "checkout_button") throws -> [String] {
        var state = try F.state(selecting: key)
        F.send(keys, to: &state)
        return F.screen(state)
    }

    @Test func rampEditorWithAValidPreview() throws {
        Snapshot.assert(try screen(after: [.character("r")] + F.typing("70") + [.tab] + F.typing("30")), named: "forms-ramp-70-30")
    }

    @Test func rampEditorOverHundredShowsTheReasonInRed() throws {
        Snapshot.assert(try screen(after: [.character("r")] + F.typing("70") + [.enter]), named: "forms-ramp-over-100")
    }

    @Test func rampEditorWithUnallocatedBucketsAndThreeVariants() throws {
        Snapshot.assert(try screen(after: [.character("r"), .tab, .character("+"), .tab] + F.typing("12.5"), selecting: "search_v2"),
                        named: "forms-ramp-three-variants")
    }

    @Test func rampConfirmationRestatesTheChange() throws {
        Snapshot.assert(try screen(after: [.character("r")] + F.typing("70") + [.tab] + F.typing("30") + [.enter]),
                        named: "forms-ramp-confirmation")
    }

    @Test func resolveFormWithEvidence() throws {
        Snapshot.assert(try screen(after: [.character("R"), .right, .tab] + F.typing("checkout_b")), named: "forms-resolve")
    }

    @Test func resolveFormRefusingAWrongKey() throws {
        Snapshot.assert(try screen(after: [.character("R"), .tab] + F.typing("checkout") + [.enter]), named: "forms-resolve-wrong-key")
    }

    @Test func newExperimentFormWithAParseError() throws {
        Snapshot.assert(try screen(after: [.character("n")] + F.typing("banner_copy") + [.tab, .right, .tab] + F.typing("control=60,short=50") + [.enter]),
                        named: "forms-new-over-100")
    }

    @Test func newExperimentFormFilledIn() throws {
        Snapshot.assert(try screen(after: [.character("n")] + NewExperimentFormUpdateTests.filling), named: "forms-new-filled")
    }

    @Test func theSmallestTerminalStillShowsTheRampEditorAndTheResolveForm() throws {
        var state = try F.state()
        F.send([.character("r")] + F.typing("70") + [.tab] + F.typing("30"), to: &state)
        Snapshot.assert(ConsoleView.render(state, width: 60, height: 16).lines(), named: "forms-ramp-60x16")
        state = try F.state()
        F.send([.character("R")], to: &state)
        Snapshot.assert(ConsoleView.render(state, width: 60, height: 16).lines(), named: "forms-resolve-60x16")
        state = try F.state()
        F.send([.character("n")], to: &state)
        Snapshot.assert(ConsoleView.render(state, width: 60, height: 16).lines(), named: "forms-new-60x16")
    }
}
