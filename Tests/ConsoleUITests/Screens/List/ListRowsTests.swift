import ExperimentCore
import ExperimentEditing
import ExperimentTestSupport
import Foundation
import Testing
@testable import ConsoleUI

/// The list's cached rows against the uncached computation the list used before the cache.
@Suite("List rows: cache, filter and selection")
struct ListRowsTests {
    /// Descriptions mixing ASCII in any case, accents composed and decomposed, CJK, a tab, and
    /// words that are also status and type names.
    static let descriptions = [
        "Checkout Button colour", "Café crème", "ÉTÉ promo", "naïve flow", "user onboarding", "DEVICE test",
        "e\u{301}te\u{301} decomposed", "tab\there", "日本語 banner", "", "Running total", "Paused on purpose",
        "Draft pricing page", "resolved-ish", "MiXeD CaSe 42",
    ]

    /// 300 experiments with every status and both types, built through real changes.
    static func store(count: Int = 300) throws -> StoreSnapshot {
        var snapshot = StoreSnapshot()
        let split = [("control", ScreenFixtures.pct(50)), ("treatment", ScreenFixtures.pct(30))]
        for index in 0..<count {
            let key = "exp_\(String(index * 7919 % 1000))_\(index % 4 == 0 ? "user" : "x")"
            let draft = ExperimentDraft(key: key, type: index % 3 == 0 ? .device : .user, variants: split,
                                        description: descriptions[index % descriptions.count] + (index % 2 == 0 ? " \(index)" : ""))
            try snapshot.apply(.create(draft), context: ScreenFixtures.alice)
            if index % 3 == 1 { try snapshot.apply(.start(experiment: key), context: ScreenFixtures.alice) }
            let started = index % 3 == 1
            if started, index % 7 == 1 { try snapshot.apply(.pause(experiment: key), context: ScreenFixtures.alice) }
            if started, index % 11 == 1 { try snapshot.apply(.resolve(experiment: key, winner: "treatment"), context: ScreenFixtures.alice) }
        }
        return snapshot
    }

    /// The visible keys as the list computed them before the cache: sort everything, then filter.
    static func reference(_ snapshot: StoreSnapshot, filter: String) -> [String] {
        let all = snapshot.experiments.values.sorted { $0.key < $1.key }
        guard !filter.isEmpty else { return all.map(\.key) }
        let needle = filter.lowercased()
        return all.filter { experiment in
            experiment.key.contains(needle) || experiment.status.rawValue == needle || experiment.type.rawValue == needle
                || experiment.description.lowercased().contains(needle)
        }.map(\.key)
    }

    static func state(_ snapshot: StoreSnapshot) -> AppState {
        AppState(snapshot: snapshot, storePath: "/tmp/experiments.json", operatorName: "bob")
    }

    /// The keys of the list rows drawn on a 120×70 screen (below the filter line and the header);
    /// `["no"]` for the "no experiment…" line.
    static func drawnKeys(_ state: AppState, rows: RowCache = RowCache()) -> [String] {
        let lines = ConsoleView.render(state, rows: rows, width: 120, height: 70).lines()
        let first = state.list.isFiltering || !state.list.filter.isEmpty ? 3 : 2
        return lines[first..<(70 - 2)].compactMap { line in
            line.dropFirst().split(separator: " ").first.map(String.init)
        }
    }

    /// Asserts the list shows exactly the reference rows, from its cache, with `selected` selected.
    static func expectRows(_ state: AppState, _ rows: RowCache, selected: String?, _ comment: Comment? = nil,
                           sourceLocation: SourceLocation = #_sourceLocation) {
        let expected = reference(state.snapshot, filter: state.list.filter)
        #expect(rows.listRows(state).experiments.map(\.key) == expected, comment, sourceLocation: sourceLocation)
        #expect(state.visibleExperiments.map(\.key) == expected, comment, sourceLocation: sourceLocation)
        #expect(state.list.selectedKey == selected, comment, sourceLocation: sourceLocation)
        let drawn = drawnKeys(state, rows: rows)
        let visible = state.list.isFiltering || !state.list.filter.isEmpty ? 65 : 66
        let top = Scrolling.firstRow(selected: selected.flatMap { expected.firstIndex(of: $0) } ?? 0, count: expected.count, visible: visible)
        let shown = expected.isEmpty ? [] : Array(expected[top..<min(expected.count, top + drawn.count)])
        #expect(expected.isEmpty ? drawn.first == "no" : drawn == shown, comment, sourceLocation: sourceLocation)
    }

    @Test func typingAndDeletingFilterCharactersShowsExactlyTheUncachedRows() throws {
        let snapshot = try Self.store()
        var state = Self.state(snapshot)
        let rows = RowCache()
        Self.expectRows(state, rows, selected: Self.reference(snapshot, filter: "").first)
        ScreenFixtures.send([.character("/")], to: &state, rows: rows)
        let steps: [Key] = ScreenFixtures.typing("user") + Array(repeating: .backspace, count: 3) + ScreenFixtures.typing("SER")
            + Array(repeating: .backspace, count: 4) + ScreenFixtures.typing("café") + [.backspace, .backspace]
            + ScreenFixtures.typing("fé") + Array(repeating: .backspace, count: 4) + ScreenFixtures.typing("été") + [.backspace]
            + [.character("e\u{301}")] + Array(repeating: .backspace, count: 3) + ScreenFixtures.typing("ÉTÉ")
            + Array(repeating: .backspace, count: 3) + ScreenFixtures.typing("draft") + Array(repeating: .backspace, count: 5)
            + ScreenFixtures.typing("RUNNING") + Array(repeating: .backspace, count: 7) + ScreenFixtures.typing("7_x")
            + Array(repeating: .backspace, count: 3) + ScreenFixtures.typing("日本") + [.backspace, .backspace]
            + ScreenFixtures.typing("zzz") + Array(repeating: .backspace, count: 3) + ScreenFixtures.typing("42") + [.backspace]
        var typed = ""
        var sawEmpty = false
        for key in steps {
            ScreenFixtures.send([key], to: &state, rows: rows)
            if case .character(let character) = key { typed.append(character) } else if !typed.isEmpty { typed.removeLast() }
            #expect(state.list.filter == typed)
            let expected = Self.reference(snapshot, filter: typed)
            sawEmpty = sawEmpty || expected.isEmpty
            Self.expectRows(state, rows, selected: expected.first, "filter \(typed.debugDescription)")
        }
        #expect(sawEmpty, "one filter matches nothing")
        #expect(Self.reference(snapshot, filter: "user").count > Self.reference(snapshot, filter: "use").count,
                "\"user\" names a type, so it matches experiments \"use\" does not: the filter cannot only narrow")
        #expect(state.list.filter == "4")
    }

    @Test func movingThroughAFilteredListFollowsTheUncachedOrder() throws {
        let snapshot = try Self.store()
        var state = Self.state(snapshot)
        let rows = RowCache()
        ScreenFixtures.send([.character("/")] + ScreenFixtures.typing("1") + [.enter], to: &state, rows: rows)
        let expected = Self.reference(snapshot, filter: "1")
        Self.expectRows(state, rows, selected: expected[0])
        ScreenFixtures.send(Array(repeating: .character("j"), count: 5), to: &state, rows: rows)
        Self.expectRows(state, rows, selected: expected[5])
        // PgDn moves by the rows a 100×30 terminal shows below the filter line and the header.
        _ = ConsoleUpdate.update(&state, .resized(width: 100, height: 30), now: Date(timeIntervalSince1970: 0), rows: rows)
        let page = 30 - 3 - 2
        ScreenFixtures.send([.pageDown, .pageDown, .character("k")], to: &state, rows: rows)
        Self.expectRows(state, rows, selected: expected[min(5 + 2 * page, expected.count - 1) - 1])
        ScreenFixtures.send([.character("G")], to: &state, rows: rows)
        Self.expectRows(state, rows, selected: expected[expected.count - 1])
        ScreenFixtures.send([.character("g")], to: &state, rows: rows)
        Self.expectRows(state, rows, selected: expected[0])
        ScreenFixtures.send([.escape], to: &state, rows: rows)
        #expect(state.list.filter == "")
        Self.expectRows(state, rows, selected: expected[0])
    }

    @Test func aReloadShowsANewExperimentAndAChangedStatusAtOnce() throws {
        let snapshot = try Self.store()
        var state = Self.state(snapshot)
        let rows = RowCache()
        ScreenFixtures.send([.character("/")] + ScreenFixtures.typing("onboarding") + [.enter], to: &state, rows: rows)
        let before = Self.reference(snapshot, filter: "onboarding")
        Self.expectRows(state, rows, selected: before[0])
        ScreenFixtures.send([.character("j"), .character("j")], to: &state, rows: rows)
        let running = try #require(before.first { snapshot.experiments[$0]?.status == .running })

        var changed = snapshot
        try changed.apply(.create(ExperimentDraft(key: "aaa_new", type: .user, variants: [("control", ScreenFixtures.pct(100))],
                                                  description: "User onboarding v2")), context: ScreenFixtures.alice)
        try changed.apply(.pause(experiment: running), context: ScreenFixtures.alice)
        _ = ConsoleUpdate.update(&state, .storeReloaded(changed), now: Date(timeIntervalSince1970: 0), rows: rows)
        let after = Self.reference(changed, filter: "onboarding")
        #expect(after == ["aaa_new"] + before)
        Self.expectRows(state, rows, selected: before[2])
        let lines = ConsoleView.render(state, rows: rows, width: 120, height: 70).lines()
        #expect(lines[3].hasPrefix(" aaa_new "))
        let row = try #require(lines.first { $0.dropFirst().hasPrefix(running + " ") })
        #expect(row.contains(" paused "))
    }

    @Test func aReloadThatDeletesTheSelectedExperimentSelectsTheNextOne() throws {
        let snapshot = try Self.store()
        var state = Self.state(snapshot)
        let rows = RowCache()
        let all = Self.reference(snapshot, filter: "")
        let drafts = all.filter { snapshot.experiments[$0]?.status == .draft }
        let victim = drafts[drafts.count / 2]
        ScreenFixtures.send(Array(repeating: .character("j"), count: try #require(all.firstIndex(of: victim))), to: &state, rows: rows)
        Self.expectRows(state, rows, selected: victim)
        var changed = snapshot
        try changed.apply(.delete(experiment: victim), context: ScreenFixtures.alice)
        _ = ConsoleUpdate.update(&state, .storeReloaded(changed), now: Date(timeIntervalSince1970: 0), rows: rows)
        let index = try #require(all.firstIndex(of: victim))
        Self.expectRows(state, rows, selected: all[index + 1])
    }

    @Test func aStoreWithTheSameRevisionButOtherContentIsNotMistakenForTheCachedOne() throws {
        let snapshot = try Self.store()
        var state = Self.state(snapshot)
        let rows = RowCache()
        ScreenFixtures.send([.character("/")] + ScreenFixtures.typing("handmade") + [.enter], to: &state, rows: rows)
        Self.expectRows(state, rows, selected: nil)
        var edited = snapshot
        let key = try #require(Self.reference(snapshot, filter: "").last)
        edited.experiments[key]?.description = "Handmade edit, revision untouched"
        #expect(edited.revision == snapshot.revision)
        _ = ConsoleUpdate.update(&state, .storeReloaded(edited), now: Date(timeIntervalSince1970: 0), rows: rows)
        #expect(Self.reference(edited, filter: "handmade") == [key])
        Self.expectRows(state, rows, selected: key)
    }

    @Test func aStateChangedWithoutTheUpdateStillShowsFreshRows() throws {
        let snapshot = try Self.store()
        var state = Self.state(snapshot)
        let rows = RowCache()
        _ = Self.drawnKeys(state, rows: rows)
        state.list.filter = "paused"
        state.snapshot.experiments["exp_zzz"] = state.snapshot.experiments.values.first { $0.status == .paused }.map { experiment in
            var copy = experiment
            copy.key = "exp_zzz"
            return copy
        }
        let expected = Self.reference(state.snapshot, filter: "paused")
        #expect(expected.last == "exp_zzz")
        #expect(state.visibleExperiments.map(\.key) == expected)
        #expect(Self.drawnKeys(state, rows: rows) == Array(expected.prefix(65)))
    }

    @Test func byteMatchingAgreesWithFoundationOnASCIIText() {
        var generator = SplitMix64(seed: 7)
        let alphabet = Array("abcdeABCDE _-.1\t\u{1B}\u{7F}")
        func text(_ length: Int) -> String { String((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }) }
        for _ in 0..<2_000 {
            let description = text(Int(generator.next() % 12))
            let filter = text(1 + Int(generator.next() % 3))
            let experiment = Experiment(key: "k", type: .user, status: .draft, salt: "s", control: "c", winner: nil, description: description,
                                        revision: 1, createdAt: ScreenFixtures.noon, updatedAt: ScreenFixtures.noon, updatedBy: "a",
                                        variants: [], whitelist: [:])
            let expected = description.lowercased().contains(filter.lowercased()) || "k".contains(filter.lowercased())
            #expect(ListMatchText(experiment).matches(ListNeedle(filter)) == expected, "\(description.debugDescription) ∋ \(filter.debugDescription)")
        }
    }
}

