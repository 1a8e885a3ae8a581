import Foundation
import Testing

/// File modes, symlinked stores, and several writers at once.
@Suite struct PermissionAndConcurrencyTests {
    func mode(_ path: String) throws -> Int {
        try #require((FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue)
    }

    @Test func aMutationKeepsTheStoresMode() throws {
        let sandbox = try Fixture.sandbox()
        for wanted in [0o600, 0o640, 0o664] {
            try FileManager.default.setAttributes([.posixPermissions: wanted], ofItemAtPath: sandbox.store)
            let before = sandbox.storeBytes()
            sandbox.ok(["whitelist", "add", "running_exp", "user-\(wanted)", "green"])
            #expect(sandbox.storeBytes() != before)
            #expect(try mode(sandbox.store) == wanted)
        }
        // No temp file is left behind.
        #expect(sandbox.files() == ["experiments.json", "experiments.json.lock"])
    }

    @Test func aSymlinkedStoreStaysALinkAndItsTargetChanges() throws {
        let sandbox = try Fixture.sandbox()
        let target = sandbox.store
        try FileManager.default.createDirectory(atPath: sandbox.path("links"), withIntermediateDirectories: false)
        let link = sandbox.path("links/store.json")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "../experiments.json")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: target)
        sandbox.store = link
        sandbox.ok(["whitelist", "add", "running_exp", "user-1", "green"])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "../experiments.json")
        let targetText = String(decoding: try #require(FileManager.default.contents(atPath: target)), as: UTF8.self)
        #expect(targetText.contains("\"subject\": \"user-1\""))
        #expect(try mode(target) == 0o600)
        #expect(try sandbox.ok(["whitelist", "list", "running_exp", "--json"]).json().elements.map(\.["subject"]) == ["user-1"])
        // The lock and any temp file live beside the target, not beside the link.
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.path("links")) == ["store.json"])
    }

    @Test func fourProcessesAddingTwentyFiveEntriesEachLoseNothing() throws {
        let sandbox = try Sandbox()
        sandbox.ok(["create", "crowd", "--type", "user", "--variants", "control=50,green=50"])
        sandbox.ok(["start", "crowd"])
        let script = """
            for i in $(seq 1 25); do
              "$0" --store "$1" whitelist add crowd "p$2-s$i" green --note "writer $2" || exit $?
            done
            """
        let writers = (1...4).map { writer in
            CLI.spawn(URL(fileURLWithPath: "/bin/sh"), ["-c", script, CLI.executable.path, sandbox.store, "\(writer)"],
                      env: ["ABCONSOLE_OPERATOR": "writer-\(writer)"], directory: sandbox.directory)
        }
        for (index, writer) in writers.enumerated() {
            let result = writer.wait()
            #expect(result.code == 0, "writer \(index + 1): \(result.stderr)")
            #expect(result.stderr.isEmpty)
            #expect(result.lines.count == 25)
        }
        let entries = try sandbox.ok(["whitelist", "list", "crowd", "--json"]).json().elements
        #expect(entries.count == 100)
        let expected = (1...4).flatMap { writer in (1...25).map { "p\(writer)-s\($0)" } }
        #expect(Set(entries.compactMap(\.["subject"].stringValue)) == Set(expected))
        for entry in entries {
            let subject = entry["subject"].stringValue ?? ""
            let writer = subject.dropFirst().prefix { $0 != "-" }
            #expect(entry["added_by"] == .string("writer-\(writer)"))
            #expect(entry["note"] == .string("writer \(writer)"))
        }
        let history = try sandbox.ok(["history", "--json"]).json().elements
        #expect(history.filter { $0["action"] == "whitelist_add" }.count == 100)
        #expect(history.count == 102)
        // Each writer's own entries appear in its order.
        for writer in 1...4 {
            let own = history.filter { $0["operator"] == .string("writer-\(writer)") }.map(\.["after"])
            #expect(own == (1...25).map { .string("p\(writer)-s\($0)=green note=\"writer \(writer)\"") })
        }
        #expect(sandbox.ok(["validate"]).stdout.hasSuffix("is valid: 1 experiment, 100 whitelist entries, 102 history entries\n"))
        let document = try JSONDecoder().decode(JSONTree.self, from: try #require(sandbox.storeBytes()))
        #expect(document["revision"] == 102)
        #expect(document["experiments"][0]["revision"] == 102)
        #expect(sandbox.files() == ["experiments.json", "experiments.json.lock"])
    }
}
