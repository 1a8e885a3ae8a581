import ExperimentCore
import Testing
@testable import ConsoleUI

/// A reply is a status-bar change and one next step; whether the answerer closes belongs to the step.
@Suite("ScreenReply: one step per reply")
struct ScreenReplyTests {
    @Test func onlyStepsThatSayItCloseTheAnswerer() {
        #expect(!ScreenReply.none.next.closesAnswerer)
        #expect(ScreenReply.close().next.closesAnswerer)
        #expect(!ScreenReply.present(.conflicts(ConflictsForm([]))).next.closesAnswerer)
        #expect(ScreenReply.replace(with: .conflicts(ConflictsForm([]))).next.closesAnswerer)
        #expect(!ScreenReply.start(.readResults(experiment: "x")).next.closesAnswerer)
        #expect(ScreenReply.start(.resolveConflicts(shown: [], takingTheirs: []), closing: true).next.closesAnswerer)
        #expect(ScreenReply.giveUp(JobID(3), closing: true).next.closesAnswerer)
        #expect(!ScreenReply.push(.list).next.closesAnswerer)
        #expect(!ScreenReply.quit(0).next.closesAnswerer)
    }

    @Test func browsingNothingIsNoStep() {
        guard case .stay = ScreenReply.browse(nil).next else { Issue.record("browse(nil) should stay"); return }
        guard case .browse(.results) = ScreenReply.browse(.results).next else { Issue.record("browse(.results) should browse"); return }
    }

    @Test func closingTheAnswererKeepsTheStatusAndTheStep() {
        let asked = ScreenReply.present(.conflicts(ConflictsForm([])), status: .clear).closingAnswerer
        #expect(asked.status == .clear)
        guard case .present(.conflicts, replacing: true, reading: nil) = asked.next else { Issue.record("a question asked again replaces the answerer"); return }
        let refused = ScreenReply.show(.error("no")).closingAnswerer
        #expect(refused.status == .show(.error("no")))
        guard case .close = refused.next else { Issue.record("a refusal asked again closes the answerer"); return }
    }
}
