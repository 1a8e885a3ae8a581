import ExperimentCore
import ExperimentEditing
import Foundation
import Testing
@testable import ConsoleUI

/// What the runtime reads of git, through the pure update: a conflicted store with nothing to pick
/// is named in the title bar and the log; an open conflicts screen follows the file.
@Suite("Git readings: update")
struct GitReadUpdateTests {
    typealias F = ScreenFixtures
    static let conflicted = GitStatus(branch: "main", store: .conflicted)
    static let trouble = "experiments.json is conflicted but abconsole's merge driver did not run (git merged it line by line): "
        + "run `abconsole git-setup`, then `git checkout -m experiments.json` to merge it by meaning"
    static let description = MergeConflict(experiment: "account_add_funds", unit: .description, base: "a", ours: "b", theirs: "c")
    static let allocation = MergeConflict(experiment: "account_add_funds", unit: .allocation, base: "a", ours: "b", theirs: "c")

    @Test func nothingToPickIsSaidInTheTitleBarAndTheLogNeverABareConflicted() throws {
        var state = try F.state()
        _ = ConsoleUpdate.update(&state, .gitRead(Self.conflicted, conflicts: [], trouble: Self.trouble), now: Date(timeIntervalSince1970: 0))
        #expect(state.gitTrouble == Self.trouble)
        #expect(state.message == .error(Self.trouble))
        #expect(state.messageLog.map(\.message) == [.error(Self.trouble)])
        let title = try #require(F.screen(state).first)
        #expect(title.contains("main · CONFLICTED") && title.contains("experiments.json is conflicted but"), "\(title)")
        // Read again unchanged: logged once; gone once git no longer lists the store.
        _ = ConsoleUpdate.update(&state, .gitRead(Self.conflicted, conflicts: [], trouble: Self.trouble), now: Date(timeIntervalSince1970: 0))
        #expect(state.messageLog.count == 1)
        _ = ConsoleUpdate.update(&state, .gitRead(GitStatus(branch: "main", store: .committed), conflicts: [], trouble: nil), now: Date(timeIntervalSince1970: 0))
        #expect(state.gitTrouble == nil)
        #expect(try #require(F.screen(state).first).contains("experiments.json is conflicted") == false)
    }

    @Test func anOpenConflictsScreenShowsTheConflictsStillOpenInTheFile() throws {
        var state = try F.state()
        _ = ConsoleUpdate.update(&state, .gitRead(Self.conflicted, conflicts: [Self.allocation, Self.description], trouble: nil), now: Date(timeIntervalSince1970: 0))
        #expect(state.overlay == .conflicts(ConflictsForm([Self.allocation, Self.description])))
        // The CLI settled the description meanwhile: the screen offers the allocation alone.
        _ = ConsoleUpdate.update(&state, .gitRead(Self.conflicted, conflicts: [Self.allocation], trouble: nil), now: Date(timeIntervalSince1970: 0))
        #expect(state.overlay == .conflicts(ConflictsForm([Self.allocation])))
        _ = ConsoleUpdate.update(&state, .gitRead(Self.conflicted, conflicts: [], trouble: "settled in the file"), now: Date(timeIntervalSince1970: 0))
        #expect(state.overlay == nil)
    }
}
