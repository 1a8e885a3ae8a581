import ExperimentCore
import ExperimentEditing
import Foundation
import Testing
@testable import ConsoleUI

/// User stories over a real store file in a temp directory, driven through a console session as `bob`.
@Suite("Whitelist screen: stories")
struct WhitelistStoryTests {
    typealias F = ScreenFixtures

    @Test func addAnEntryThroughTheForm() throws {
        let (session, store, directory) = try F.session()
        defer { try? FileManager.default.removeItem(at: directory) }
        session.send(.character("w"))
        session.send(.character("a"))
        session.type("partner-7")
        session.send(.tab)
        session.type("t")
        session.send(.tab)
        session.type("Acme QA")
        session.send(.enter)

        let saved = try #require(try store.load().experiments["account_add_funds"])
        #expect(saved.whitelistEntry(for: "partner-7") == WhitelistEntry(
            subject: "partner-7", variant: "treatment", note: "Acme QA", addedBy: "bob", addedAt: F.noon.addingTimeInterval(3600)))
        var lines = session.render(width: 100, height: 30).lines()
        #expect(session.state.overlay == nil)
        #expect(lines.contains { $0.hasPrefix("▶partner-7 ") && $0.contains("Acme QA") && $0.contains("bob") && $0.contains("2026-07-22 11:00") })
        #expect(lines[28].hasPrefix(" whitelisted `partner-7` into `treatment` of `account_add_funds`"))

        session.send(.escape)
        session.send(.character("H"))
        lines = session.render(width: 100, height: 30).lines()
        #expect(lines[3].hasPrefix("▶2026-07-22 11:00 UTC bob          account_add_funds whitelist_add    ∅ → partner-7=treatment"))
    }

    @Test func removeTheSelectedEntryWithDThenY() throws {
        let (session, store, directory) = try F.session()
        defer { try? FileManager.default.removeItem(at: directory) }
        session.send(.character("w"))
        session.send(.character("j"))
        session.send(.character("d"))
        #expect(session.render(width: 100, height: 30).lines().contains { $0.contains("Remove `user-1` from the whitelist of `account_add_funds`?") })
        session.send(.character("y"))

        let saved = try #require(try store.load().experiments["account_add_funds"])
        #expect(saved.whitelistEntry(for: "user-1") == nil)
        #expect(saved.whitelist.count == 2)
        let lines = session.render(width: 100, height: 30).lines()
        #expect(lines[28].hasPrefix(" removed `user-1` from the whitelist of `account_add_funds`"))
        #expect(lines.contains { $0.hasPrefix("▶user-9 ") })
        #expect(try store.load().history.last?.operatorName == "bob")
    }

    @Test func importACSVFileWithABadLineThenAGoodOne() throws {
        let (session, store, directory) = try F.session()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bad = directory.appendingPathComponent("bad.csv")
        try Data("subject,variant,note\npartner-a,nope,x\npartner-b,treatment,y\n".utf8).write(to: bad)
        let good = directory.appendingPathComponent("good.csv")
        try Data("partner-a,treatment,Acme\npartner-b,control,\"Beta, Inc\"\n".utf8).write(to: good)
        let before = try store.load()

        session.send(.character("w"))
        session.send(.character("I"))
        session.type(bad.path)
        session.send(.enter)
        #expect(try store.load() == before)
        var lines = session.render(width: 100, height: 30).lines()
        #expect(lines.contains { $0.contains("│ line 2: experiment `account_add_funds` has no variant `nope`; its variants") })
        #expect(session.state.bindingContext == .form)

        session.send(.control("u"))
        session.type(good.path)
        session.send(.enter)
        let saved = try #require(try store.load().experiments["account_add_funds"])
        #expect(saved.whitelistEntry(for: "partner-a")?.variant == "treatment")
        #expect(saved.whitelistEntry(for: "partner-b")?.note == "Beta, Inc")
        #expect(saved.whitelist.count == 5)
        lines = session.render(width: 100, height: 30).lines()
        #expect(lines[28].hasPrefix(" imported 2 entries (2 new, 0 replaced) into the whitelist of `account_add_funds`"))
        #expect(lines[1].hasPrefix(" 5 entries"))
    }

    /// A device never ends: the import refuses it unread (the CLI's rule, from the same store service)
    /// instead of reading `/dev/zero` forever; a directory is refused the same way.
    @Test func importingADeviceOrADirectoryIsRefusedUnread() throws {
        let (session, store, directory) = try F.session()
        defer { try? FileManager.default.removeItem(at: directory) }
        let before = try store.load()
        session.send(.character("w"))
        session.send(.character("I"))
        session.type("/dev/zero")
        session.send(.enter)
        #expect(try store.load() == before)
        #expect(session.render(width: 100, height: 30).lines().contains { $0.contains("│ cannot open /dev/zero: it is a device, not a file") })
        #expect(session.state.bindingContext == .form)

        session.send(.control("u"))
        session.type(directory.path)
        session.send(.enter)
        #expect(try store.load() == before)
        #expect(session.state.message?.text == "cannot open \(directory.path): it is a directory, not a file")
    }

    @Test func anEditAgainstAChangedExperimentIsRefusedNamingWhoChangedIt() throws {
        let (session, store, directory) = try F.session()
        defer { try? FileManager.default.removeItem(at: directory) }
        session.send(.character("w"))
        session.send(.character("a"))
        session.type("partner-7")
        try store.apply(.whitelistAdd(experiment: "account_add_funds", subject: "zed", variant: "control", note: ""),
                        context: ChangeContext(operatorName: "carol", now: F.noon))
        session.send(.enter)

        let saved = try #require(try store.load().experiments["account_add_funds"])
        #expect(saved.whitelistEntry(for: "partner-7") == nil)
        #expect(session.state.message?.text.hasPrefix("experiment `account_add_funds` was changed by carol") == true)
        // The form comes back with what was typed; it shows no numbers, so it follows the fresh store and Enter saves.
        guard case .whitelistAdd(let form)? = session.state.overlay else {
            Issue.record("the form comes back: \(String(describing: session.state.overlay))")
            return
        }
        #expect(form.subject.text == "partner-7")
        #expect(form.revision == saved.revision)
        session.send(.enter)
        #expect(try store.load().experiments["account_add_funds"]?.whitelistEntry(for: "partner-7")?.variant == "control")
        #expect(session.render(width: 100, height: 30).lines().contains { $0.hasPrefix(" zed ") })
    }

    @Test func anExternalChangeShowsUpOnTick() throws {
        let (session, store, directory) = try F.session()
        defer { try? FileManager.default.removeItem(at: directory) }
        session.send(.character("w"))
        session.send(.character("G"))
        try store.apply(.whitelistRemove(experiment: "account_add_funds", subject: "qa-bot"),
                        context: ChangeContext(operatorName: "carol", now: F.noon))
        session.tick()
        let lines = session.render(width: 100, height: 30).lines()
        #expect(lines[1].hasPrefix(" 2 entries"))
        #expect(!lines.contains { $0.contains("qa-bot") })
        #expect(lines.contains { $0.hasPrefix("▶user-9 ") })
    }
}
