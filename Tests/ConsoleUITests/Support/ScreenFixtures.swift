import ConsoleRuntime
import ExperimentCore
import ExperimentEditing
import ExperimentStore
import Foundation
@testable import ConsoleUI

/// Stores, states and sessions shared by the whitelist, history and inspector tests.
enum ScreenFixtures {
    /// 2026-07-22 10:00 UTC.
    static let noon = Date(timeIntervalSince1970: 1_784_714_400)
    static let alice = ChangeContext(operatorName: "alice", now: noon)

    /// The changes that build the fixture store, in order.
    static let changes: [Change] = [
        .create(ExperimentDraft(key: "account_add_funds", type: .user, variants: [("control", pct(50)), ("treatment", pct(50))],
                                description: "Add funds button")),
        .start(experiment: "account_add_funds"),
        .whitelistAdd(experiment: "account_add_funds", subject: "user-1", variant: "treatment", note: "partner QA"),
        .whitelistAdd(experiment: "account_add_funds", subject: "user-9", variant: "control", note: "\u{1B}[2J evil"),
        .whitelistAdd(experiment: "account_add_funds", subject: "qa-bot", variant: "treatment", note: "smoke tests"),
        .create(ExperimentDraft(key: "app_color_scheme", type: .device, variants: [("light", pct(40)), ("dark", pct(40))])),
        .start(experiment: "app_color_scheme"),
        .create(ExperimentDraft(key: "new_flow", type: .user, variants: [("control", pct(100))])),
        .create(ExperimentDraft(key: "old_banner", type: .user, variants: [("control", pct(50)), ("treatment", pct(50))])),
        .start(experiment: "old_banner"),
        .whitelistAdd(experiment: "old_banner", subject: "user-1", variant: "control", note: ""),
        .resolve(experiment: "old_banner", winner: "treatment"),
    ]

    static func pct(_ value: Int) -> Weight { Weight(buckets: value * 100) }

    /// The fixture store in memory.
    static func snapshot() throws -> StoreSnapshot {
        var snapshot = StoreSnapshot()
        for change in changes { try snapshot.apply(change, context: alice) }
        return snapshot
    }

    /// A console state over the fixture store, the list showing.
    static func state(readOnly: Bool = false) throws -> AppState {
        AppState(snapshot: try snapshot(), storePath: "/tmp/experiments.json", operatorName: "bob", readOnly: readOnly)
    }

    /// Sends keys through the pure update; returns the effects of the last key.
    @discardableResult
    static func send(_ keys: [Key], to state: inout AppState, rows: RowCache = RowCache()) -> [Effect] {
        var effects: [Effect] = []
        for key in keys { effects = ConsoleUpdate.update(&state, .key(key), now: Date(timeIntervalSince1970: 0), rows: rows) }
        return effects
    }

    /// Ends the newest job with `outcome`, as the runtime would.
    static func finishJob(_ outcome: JobOutcome, _ state: inout AppState) {
        guard let id = state.jobs.last?.id else { return }
        _ = ConsoleUpdate.update(&state, .jobFinished(id, outcome), now: Date(timeIntervalSince1970: 0))
    }

    /// Keys typing `text`.
    static func typing(_ text: String) -> [Key] { text.map(Key.character) }

    /// A temp directory holding the fixture store on disk, and a session over it as `bob`.
    static func session() throws -> (session: ConsoleSession, store: StoreFile, directory: URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("abconsole-screens-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = StoreFile(path: directory.appendingPathComponent("experiments.json").path)
        for change in changes { try store.apply(change, context: alice) }
        let session = try ConsoleSession(store: store, operatorName: "bob", settleTime: 10, clock: { noon.addingTimeInterval(3600) })
        return (session, store, directory)
    }

    /// The rendered screen at 100×30.
    static func screen(_ state: AppState, rows: RowCache = RowCache()) -> [String] {
        ConsoleView.render(state, rows: rows, width: 100, height: 30).lines()
    }
}
