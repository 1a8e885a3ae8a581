import ConsoleRuntime
import ExperimentCore
import ExperimentEditing
import ExperimentStore
import Foundation
@testable import ConsoleUI

/// Stores, states and sessions for the ramp, resolve, new-experiment and lifecycle tests.
enum FormsFixture {
    /// 2026-03-02 09:00 UTC.
    static let t0 = Date(timeIntervalSince1970: 1_772_442_000)
    static let alice = ChangeContext(operatorName: "alice", now: t0)
    /// Another operator changing the store behind the console's back, an hour later.
    static let dave = ChangeContext(operatorName: "dave", now: t0.addingTimeInterval(3600))
    /// The console's operator.
    static let operatorName = "carol"

    /// `checkout_button` running 50/50 with a small whitelist, `paywall_copy` resolved, `search_v2` a 3-variant draft.
    static let changes: [Change] = [
        .create(ExperimentDraft(key: "checkout_button", type: .user, variants: [("control", pct(50)), ("treatment", pct(50))],
                                description: "Green checkout button")),
        .start(experiment: "checkout_button"),
        .whitelistAdd(experiment: "checkout_button", subject: "user-1", variant: "treatment", note: "QA"),
        .whitelistAdd(experiment: "checkout_button", subject: "user-2", variant: "treatment", note: "partner"),
        .whitelistAdd(experiment: "checkout_button", subject: "user-3", variant: "control", note: ""),
        .create(ExperimentDraft(key: "paywall_copy", type: .device, variants: [("a", pct(50)), ("b", pct(50))])),
        .start(experiment: "paywall_copy"),
        .resolve(experiment: "paywall_copy", winner: "b"),
        .create(ExperimentDraft(key: "search_v2", type: .device, variants: [("control", pct(20)), ("bm25", pct(30)), ("vector", pct(30))])),
    ]

    static func pct(_ value: Int) -> Weight { Weight(buckets: value * 100) }

    /// The fixture store in memory.
    static func snapshot() throws -> StoreSnapshot {
        var snapshot = StoreSnapshot()
        for change in changes { try snapshot.apply(change, context: alice) }
        return snapshot
    }

    /// A console state over the fixture store with the list showing and `checkout_button` selected.
    static func state(readOnly: Bool = false) throws -> AppState {
        AppState(snapshot: try snapshot(), storePath: "/tmp/experiments.json", operatorName: operatorName, readOnly: readOnly)
    }

    /// The state with `key` selected in the list.
    static func state(selecting key: String, readOnly: Bool = false) throws -> AppState {
        var state = try state(readOnly: readOnly)
        state.list.selectedKey = key
        return state
    }

    /// Sends keys through the pure update; returns every effect they produced.
    @discardableResult
    static func send(_ keys: [Key], to state: inout AppState, rows: RowCache = RowCache()) -> [Effect] {
        keys.flatMap { ConsoleUpdate.update(&state, .key($0), now: Date(timeIntervalSince1970: 0), rows: rows) }
    }

    /// Ends the newest job with `outcome`, as the runtime would.
    static func finishJob(_ outcome: JobOutcome, _ state: inout AppState) { ScreenFixtures.finishJob(outcome, &state) }

    /// Keys typing `text`.
    static func typing(_ text: String) -> [Key] { text.map(Key.character) }

    /// The experiment `key` of `state`'s snapshot (fails the test when missing).
    static func experiment(_ key: String, in state: AppState) throws -> Experiment {
        guard let experiment = state.snapshot.experiments[key] else { throw FixtureError(message: "no experiment \(key)") }
        return experiment
    }

    /// The rendered screen at 100×30.
    static func screen(_ state: AppState) -> [String] {
        ConsoleView.render(state, width: 100, height: 30).lines()
    }
}

/// A store file in its own temp directory, filled with the fixture, and a console session over it.
struct FormsStore {
    let directory: URL
    let store: StoreFile
    let session: ConsoleSession

    init(readOnly: Bool = false) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("abconsole-forms-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = StoreFile(path: directory.appendingPathComponent("experiments.json").path)
        for change in FormsFixture.changes { try store.apply(change, context: FormsFixture.alice) }
        let now = FormsFixture.t0.addingTimeInterval(7200)
        session = try ConsoleSession(store: store, operatorName: FormsFixture.operatorName, readOnly: readOnly, settleTime: 10, clock: { now })
    }

    /// The store as saved on disk now.
    func saved() throws -> StoreSnapshot { try store.load() }

    /// The experiment `key` as saved on disk now.
    func saved(_ key: String) throws -> Experiment {
        guard let experiment = try saved().experiments[key] else { throw FixtureError(message: "no experiment \(key) on disk") }
        return experiment
    }

    /// The screen at 100×30.
    func screen() -> [String] { session.render(width: 100, height: 30).lines() }

    /// Types `text` into the session.
    func type(_ text: String) { session.type(text) }

    func send(_ keys: Key...) { keys.forEach(session.send) }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

struct FixtureError: Error {
    let message: String
}
