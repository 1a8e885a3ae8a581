import ExperimentCore
import ExperimentEditing
import ExperimentStore
import ExperimentTestSupport
import Foundation
import HTTPServer
import Testing
@testable import ExperimentServer

/// The live store: swapped between requests, the last good one kept, each problem said once.
@Suite struct LiveStoreTests {
    @Test func aChangedStoreIsSwappedIn() throws {
        let fixture = try ServerFixture()
        let before = try #require(fixture.live.served?.revision)
        let answer = fixture.send("POST", "/ofrep/v1/evaluate/flags/killswitch", body: "{}")
        #expect(answer.object["variant"] as? String == "control")
        _ = try fixture.file.apply(.start(experiment: "killswitch"), context: Fixture.bob)
        _ = try fixture.file.apply(.resolve(experiment: "killswitch", winner: "fast"), context: Fixture.bob)
        fixture.live.refresh()
        #expect(fixture.live.served?.revision == before + 2)
        #expect(fixture.send("POST", "/ofrep/v1/evaluate/flags/killswitch", body: "{}").object["variant"] as? String == "fast")
        #expect(fixture.send("GET", "/healthz").object["revision"] as? Int == before + 2)
        // Starting the draft serves it.
        _ = try fixture.file.apply(.start(experiment: "new_thing"), context: Fixture.bob)
        fixture.live.refresh()
        #expect(fixture.send("POST", "/ofrep/v1/evaluate/flags/new_thing", body: "{}").status == 200)
    }

    /// A served store holds each whitelist as subject to variant index, never the store's entries
    /// (notes, operators, dates) or its history: what keeps a reload's memory near the file's size.
    @Test func theServedStoreKeepsWhitelistsAsIndicesOnly() throws {
        let fixture = try ServerFixture()
        let rows = (0..<500).map { index in
            WhitelistRow(line: index + 2, subject: String(format: "sub-%04d", index), variant: index % 2 == 0 ? "control" : "treatment",
                         note: "a note of more than fifteen bytes")
        }
        _ = try fixture.file.apply(.whitelistImport(experiment: "checkout", rows: rows), context: Fixture.bob)
        _ = try fixture.file.apply(.whitelistAdd(experiment: "dark_mode", subject: "tablet-1", variant: "on", note: "QA"), context: Fixture.bob)
        fixture.live.refresh()
        let served = try #require(fixture.live.served)
        #expect(served.heldWhitelist.entries == 0, "no whitelist entry is kept")
        #expect(served.heldWhitelist.indices == 502, "every listed subject of the served experiments is kept as an index")
        for (subject, variant) in [("sub-0006", "control"), ("sub-0007", "treatment"), ("partner-7", "treatment")] {
            let answer = fixture.send("POST", "/ofrep/v1/evaluate/flags/checkout", body: #"{"context":{"userId":"\#(subject)"}}"#)
            #expect(answer.object["variant"] as? String == variant, "\(subject)")
        }
        let tablet = fixture.send("POST", "/ofrep/v1/evaluate/flags/dark_mode", body: #"{"context":{"deviceId":"tablet-1"}}"#)
        #expect(tablet.object["variant"] as? String == "on")
    }

    @Test func anInvalidStoreKeepsTheLastGoodOneAndSaysWhyOnce() throws {
        let fixture = try ServerFixture()
        let good = try #require(fixture.live.served?.revision)
        let reportsBefore = fixture.reports.current.count
        try Data(#"{"schema_version":1,"revision":"#.utf8).write(to: URL(fileURLWithPath: fixture.file.path))
        fixture.live.refresh()
        fixture.live.refresh()
        #expect(fixture.live.served?.revision == good)
        #expect(fixture.send("GET", "/healthz").status == 200)
        #expect(fixture.send("POST", "/ofrep/v1/evaluate/flags/old_banner", body: "{}").object["variant"] as? String == "treatment")
        let said = Array(fixture.reports.current.dropFirst(reportsBefore))
        #expect(said.count == 1)
        #expect(said.first?.hasPrefix("still serving the last good store: the store \(fixture.file.path) is not valid") == true)
        // Repaired: the good store is loaded again and said so.
        try FileManager.default.removeItem(atPath: fixture.file.path)
        try ServerFixture.populate(fixture.file)
        fixture.live.refresh()
        #expect(fixture.live.served?.revision == good)
        #expect(fixture.reports.current.last?.hasPrefix("serving store revision") == true)
    }

    @Test func aVanishedStoreKeepsTheLastGoodOne() throws {
        let fixture = try ServerFixture()
        let good = try #require(fixture.live.served?.revision)
        try FileManager.default.removeItem(atPath: fixture.file.path)
        fixture.live.refresh()
        fixture.live.refresh()
        #expect(fixture.live.served?.revision == good)
        #expect(fixture.bulk(#"{"userId":"u"}"#).status == 200)
        #expect(fixture.reports.current.filter { $0 == "still serving the last good store: the store \(fixture.file.path) is missing" }.count == 1)
    }

    @Test func withoutAGoodStoreEverythingButTheServerItselfIs503() throws {
        let fixture = try ServerFixture(writeStore: false)
        #expect(fixture.live.served == nil)
        for (method, path) in [("GET", "/healthz"), ("POST", "/ofrep/v1/evaluate/flags"), ("POST", "/ofrep/v1/evaluate/flags/checkout")] {
            let response = fixture.send(method, path, body: #"{"context":{"userId":"u"}}"#)
            #expect(response.status == 503, "\(path)")
            #expect((response.object["errorDetails"] as? String)?.contains("no valid store has loaded yet") == true)
        }
        #expect(fixture.reports.current == ["waiting for a store: the store \(fixture.file.path) is missing"])
        #expect(fixture.send("GET", "/ofrep/v1/configuration").status == 200)
        // An invalid store first: still 503; then a good one: served.
        try Data(#"{"schema_version":1,"revision":1,"experiments":{"x":{"status":"weird"}}}"#.utf8).write(to: URL(fileURLWithPath: fixture.file.path))
        fixture.live.refresh()
        let unavailable = fixture.send("GET", "/healthz")
        #expect(unavailable.status == 503)
        #expect(!unavailable.text.contains("status") && !unavailable.text.contains("weird"))
        #expect(fixture.reports.current.count == 2)
        #expect(fixture.reports.current.last?.hasPrefix("waiting for a valid store: the store") == true)
        try FileManager.default.removeItem(atPath: fixture.file.path)
        try ServerFixture.populate(fixture.file)
        fixture.live.refresh()
        #expect(fixture.send("GET", "/healthz").status == 200)
        #expect(fixture.bulk(#"{"userId":"u"}"#).status == 200)
    }
}
