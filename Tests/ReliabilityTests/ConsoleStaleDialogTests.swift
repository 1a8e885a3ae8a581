import ConsoleRuntime
import ConsoleUI
import ExperimentCore
import ExperimentEditing
import Foundation
import Testing

/// Every form and dialog of a console stays honest while a second writer (the real `StoreFile`)
/// changes the store under it: it shows the fresh numbers or says what changed and by whom, and
/// confirming never writes on stale numbers.
@Suite struct ConsoleStaleDialogTests {
    private let maria = ChangeContext(operatorName: "maria.pm", now: TempStore.t1)

    private func session(_ store: TempStore) throws -> ConsoleSession {
        try ConsoleSession(store: store.file, operatorName: "alice", settleTime: 10, clock: { TempStore.t0 })
    }

    private func weights(_ store: TempStore) throws -> [Int]? {
        try store.file.load().experiments["checkout"]?.variants.map(\.weight.buckets)
    }

    /// The text inside the boxes on screen, one space between words (so wrapped sentences read whole).
    private func screen(_ session: ConsoleSession) -> String {
        session.render(width: 100, height: 30).lines().map { line in
            guard let first = line.firstIndex(of: "│"), let last = line.lastIndex(of: "│"), first < last else { return line }
            return String(line[line.index(after: first)..<last])
        }.joined(separator: " ").split(separator: " ").joined(separator: " ")
    }

    private func ramp(_ control: Int, _ treat: Int) -> Change {
        .ramp(experiment: "checkout", weights: ["control": Weight(buckets: control * 100), "treat": Weight(buckets: treat * 100)])
    }

    @Test func theRampEditorRecomputesFromTheFreshWeightsKeepingWhatWasTyped() throws {
        let store = try TempStore()
        try store.createRunning()
        let alice = try session(store)
        alice.send(.character("r"))
        alice.type("60")
        try store.file.apply(ramp(70, 30), context: maria)
        alice.tick()
        guard case .ramp(let editor)? = alice.state.overlay else {
            Issue.record("the editor stays open: \(String(describing: alice.state.overlay))")
            return
        }
        #expect(editor.before.map(\.buckets) == [7000, 3000], "NOW shows the fresh weights")
        #expect(editor.fields.map(\.text) == ["60", "30"], "the typed field is kept, the untouched one follows")
        let text = screen(alice)
        #expect(text.contains("maria.pm ramped it at 2026-03-01"), "\(text)")
        #expect(text.contains("70 %"))
        alice.send(.enter)
        guard case .confirm(let review)? = alice.state.overlay else {
            Issue.record("a review: \(String(describing: alice.state.overlay))")
            return
        }
        #expect(review.lines.first?.hasSuffix("70 % → 60 %") == true, "\(review.lines)")
        #expect(review.lines.dropFirst().first?.hasSuffix("30 % → 30 %") == true, "\(review.lines)")
        alice.send(.character("y"))
        #expect(try weights(store) == [6000, 3000])
        // Alice's clock (t0) is behind maria's entry (t1): her entry goes before it, by time.
        #expect(try store.file.load().history.last(where: { $0.operatorName == "alice" })?.before == "control=70,treat=30")
    }

    @Test func aReviewThatWentStaleWarnsAndItsYesWritesNothing() throws {
        let store = try TempStore()
        try store.createRunning()
        let alice = try session(store)
        alice.send(.character("r"))
        alice.type("60")
        alice.send(.tab)
        alice.type("40")
        alice.send(.enter)
        try store.file.apply(ramp(70, 30), context: maria)
        let afterMaria = store.bytes()
        alice.tick()
        guard case .confirm(let review)? = alice.state.overlay else {
            Issue.record("the review stays open: \(String(describing: alice.state.overlay))")
            return
        }
        #expect(review.stale?.text.contains("maria.pm ramped it") == true)
        #expect(review.stale?.text.contains("control=50,treat=50 → control=70,treat=30") == true)
        #expect(screen(alice).contains("y asks again with the new"))
        alice.send(.character("y"))
        #expect(store.bytes() == afterMaria, "the stale review wrote nothing")
        guard case .ramp(let editor)? = alice.state.overlay else {
            Issue.record("y reopens the editor on the new numbers: \(String(describing: alice.state.overlay))")
            return
        }
        #expect(editor.before.map(\.buckets) == [7000, 3000])
        #expect(editor.fields.map(\.text) == ["60", "40"])
    }

    @Test func aPauseConfirmationThatWentStaleAsksAgainAndAPauseOfAPausedOneWritesNothing() throws {
        let store = try TempStore()
        try store.createRunning()
        let alice = try session(store)
        alice.send(.character("p"))
        try store.file.apply(ramp(70, 30), context: maria)
        alice.tick()
        guard case .confirm(let question)? = alice.state.overlay else {
            Issue.record("the question stays open")
            return
        }
        #expect(question.stale?.text.contains("maria.pm ramped it") == true)
        let afterRamp = store.bytes()
        alice.send(.character("y"))
        #expect(store.bytes() == afterRamp)
        guard case .confirm(let fresh)? = alice.state.overlay else {
            Issue.record("asked again")
            return
        }
        #expect(fresh.stale == nil)
        // Maria pauses while the fresh question is open: `y` asks again, and there is nothing left to do.
        try store.file.apply(.pause(experiment: "checkout"), context: maria)
        let paused = store.bytes()
        alice.tick()
        alice.send(.character("y"))
        #expect(alice.state.overlay == nil)
        #expect(alice.state.message?.text == "`checkout` is already paused")
        #expect(store.bytes() == paused)
        #expect(try store.file.load().history.filter { $0.action == .pause }.map(\.operatorName) == ["maria.pm"])
    }

    @Test func aStartConfirmationRefusedInTheRaceShowsTheRefusalWholeAndWritesNothing() throws {
        let store = try TempStore()
        try store.createRunning()
        try store.file.apply(.pause(experiment: "checkout"), context: maria)
        let alice = try session(store)
        alice.send(.character("s"))
        // Maria ramps and Alice answers before her console reloads: the core refuses.
        try store.file.apply(ramp(70, 30), context: maria)
        let afterRamp = store.bytes()
        alice.send(.character("y"))
        #expect(store.bytes() == afterRamp)
        guard case .confirm(let question)? = alice.state.overlay else {
            Issue.record("the question comes back with the refusal")
            return
        }
        #expect(question.refusal?.hasSuffix("review the fresh state and try again") == true)
        #expect(screen(alice).contains("review the fresh state and try again"))
    }

    @Test func aRemovalConfirmationFollowsAnEntryChangedOrRemovedMeanwhile() throws {
        let store = try TempStore()
        try store.createRunning()
        try store.file.apply(.whitelistAdd(experiment: "checkout", subject: "u1", variant: "control", note: "qa"), context: maria)
        let alice = try session(store)
        alice.send(.character("w"))
        alice.send(.character("d"))
        guard case .confirm(let question)? = alice.state.overlay else {
            Issue.record("the removal question")
            return
        }
        #expect(question.lines.first?.contains("`control`") == true)
        try store.file.apply(.whitelistAdd(experiment: "checkout", subject: "u1", variant: "treat", note: "moved", replace: true), context: maria)
        let replaced = store.bytes()
        alice.tick()
        #expect(screen(alice).contains("maria.pm changed its whitelist"))
        alice.send(.character("y"))
        #expect(store.bytes() == replaced)
        guard case .confirm(let fresh)? = alice.state.overlay else {
            Issue.record("asked again")
            return
        }
        #expect(fresh.lines.first?.contains("`treat`") == true, "the fresh entry is restated")
        try store.file.apply(.whitelistRemove(experiment: "checkout", subject: "u1"), context: maria)
        let removed = store.bytes()
        alice.tick()
        alice.send(.character("y"))
        #expect(alice.state.overlay == nil)
        #expect(alice.state.message?.text == "nothing to remove: `u1` is no longer whitelisted in `checkout`")
        #expect(store.bytes() == removed)
    }

    @Test func aSubjectWhitelistedMeanwhileGetsTheReplaceQuestion() throws {
        let store = try TempStore()
        try store.createRunning()
        let alice = try session(store)
        alice.send(.character("w"))
        alice.send(.character("a"))
        alice.type("u1")
        alice.send(.tab)
        alice.send(.right)
        alice.send(.tab)
        alice.type("beta tester")
        try store.file.apply(.whitelistAdd(experiment: "checkout", subject: "u1", variant: "control", note: "qa"), context: maria)
        let added = store.bytes()
        alice.tick()
        alice.send(.enter)
        #expect(store.bytes() == added, "nothing replaced without asking")
        guard case .confirm(let question)? = alice.state.overlay else {
            Issue.record("the replace question: \(String(describing: alice.state.overlay))")
            return
        }
        let text = screen(alice)
        #expect(text.contains("Replace `u1`"), "\(text)")
        #expect(text.contains("now `control`, note \"qa\", added by maria.pm at 2026-03-01 11:00:00 UTC"), "\(text)")
        #expect(text.contains("new `treat`, note \"beta tester\""), "\(text)")
        #expect(question.expectedRevision == (try store.file.load().experiments["checkout"]?.revision))
        alice.send(.character("n"))
        guard case .whitelistAdd(let form)? = alice.state.overlay else {
            Issue.record("n returns to the form")
            return
        }
        #expect(form.subject.text == "u1" && form.note.text == "beta tester")
        alice.send(.enter)
        alice.send(.character("y"))
        let entry = try store.file.load().experiments["checkout"]?.whitelist[SubjectID("u1")]
        #expect(entry?.variant == "treat" && entry?.note == "beta tester" && entry?.addedBy == "alice")
    }

    @Test func aSubjectWhitelistedInTheRaceTurnsTheRefusalIntoTheReplaceQuestion() throws {
        let store = try TempStore()
        try store.createRunning()
        let alice = try session(store)
        alice.send(.character("w"))
        alice.send(.character("a"))
        alice.type("u1")
        // Maria adds u1 and Alice presses Enter before her console reloads.
        try store.file.apply(.whitelistAdd(experiment: "checkout", subject: "u1", variant: "treat", note: "qa"), context: maria)
        let added = store.bytes()
        alice.send(.enter)
        #expect(store.bytes() == added)
        guard case .confirm(let question)? = alice.state.overlay else {
            Issue.record("the replace question: \(String(describing: alice.state.overlay))")
            return
        }
        #expect(question.title.hasPrefix("Replace `u1`"))
        #expect(question.refusal?.contains("maria.pm") == true)
        alice.send(.character("y"))
        #expect(try store.file.load().experiments["checkout"]?.whitelist[SubjectID("u1")]?.variant == "control")
    }

    @Test func anOpenResolveFormSaysWhatChangedAndNeedsTheKeyTypedAgain() throws {
        let store = try TempStore()
        try store.createRunning()
        let alice = try session(store)
        alice.send(.character("R"))
        alice.send(.tab)
        alice.type("checkout")
        try store.file.apply(ramp(90, 10), context: maria)
        let ramped = store.bytes()
        alice.tick()
        guard case .resolve(let form)? = alice.state.overlay else {
            Issue.record("the form stays open")
            return
        }
        #expect(form.confirmation.text.isEmpty, "the irreversible resolve is confirmed again")
        #expect(screen(alice).contains("maria.pm ramped"))
        alice.send(.enter)
        #expect(store.bytes() == ramped)
        alice.type("checkout")
        alice.send(.enter)
        #expect(try store.file.load().experiments["checkout"]?.status == .resolved)
    }
}
