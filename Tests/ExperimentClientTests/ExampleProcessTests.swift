import ExperimentCore
import Foundation
import Testing

/// `client-example` against `abconsole inspect` on the same store, and `export --format client`.
@Suite(.serialized) struct ExampleProcessTests {
    static let store = Fixture.sampleStoreURL.path

    /// `KEY VARIANT` lines from the example equal the VARIANT column of `inspect`, for many subjects,
    /// reading the store file and the client export of it.
    @Test func exampleAgreesWithInspectForManySubjects() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let exported = directory.appendingPathComponent("client.json").path
        let export = try Binaries.run("abconsole", ["--store", Self.store, "export", "--format", "client", "--out", exported])
        try #require(export.code == 0, "\(export.stderr)")
        var subjects: [(user: String?, device: String?)] = [(nil, nil), ("emp-1001", "device-7f3a"), ("qa-tester-2", nil), (nil, "device-1"),
                                                            ("partner-acme-01", "d"), ("1001", "1001")]
        subjects += (0..<40).map { ("user-\($0 * 7919)", $0 % 4 == 0 ? nil : "device-\($0)") }
        for (user, device) in subjects {
            var query: [String] = []
            if let user { query += ["--user", user] }
            if let device { query += ["--device", device] }
            let inspect = try Binaries.run("abconsole", ["--store", Self.store, "inspect", "--json"] + query)
            try #require(inspect.code == 0, "\(inspect.stderr)")
            let decisions = try JSONDecoder().decode([InspectRow].self, from: Data(inspect.stdout.utf8))
            let expected = decisions.map { "\($0.experiment) \($0.variant)" }
            for snapshot in [Self.store, exported] {
                let example = try Binaries.run("client-example", ["--snapshot", snapshot] + query)
                #expect(example.code == 0)
                #expect(example.stdout.split(separator: "\n").map(String.init) == expected, "\(query) \(snapshot)")
                #expect(example.stderr.isEmpty, "\(example.stderr)")
            }
        }
    }

    @Test func showLogsExposuresOfBucketedKeysOnly() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("exposures.jsonl").path
        let keys = ["account_add_funds", "app_color_scheme", "iap_discount", "onboarding_flow", "paywall_type", "purchase_button_color"]
        let arguments = ["--snapshot", Self.store, "--user", "user-42", "--device", "device-7f3a", "--exposures", log]
            + keys.flatMap { ["--show", $0] }
        #expect(try Binaries.run("client-example", arguments).code == 0)
        #expect(try Binaries.run("client-example", arguments).code == 0)
        let rows = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map {
            try JSONDecoder().decode([String: String].self, from: Data($0.utf8))
        }
        // user-42: account_add_funds and purchase_button_color are bucketed; the device is whitelisted,
        // iap_discount resolved, onboarding_flow paused, paywall_type a draft. Each run is one session.
        #expect(rows.map { "\($0["experiment"] ?? "") \($0["variant"] ?? "") \($0["subject"] ?? "")" } == [
            "account_add_funds control user-42", "purchase_button_color green user-42",
            "account_add_funds control user-42", "purchase_button_color green user-42",
        ])
    }

    @Test func badSnapshotServesDefaultsAndSaysWhy() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let truncated = directory.appendingPathComponent("truncated.json")
        try Data(try Data(contentsOf: Fixture.sampleStoreURL).prefix(500)).write(to: truncated)
        let result = try Binaries.run("client-example", ["--snapshot", truncated.path, "--user", "u"])
        #expect(result.code == 0)
        #expect(result.stdout.split(separator: "\n").allSatisfy { $0.hasSuffix(" default") })
        #expect(result.stderr.contains("truncated.json not used"))
        #expect(try Binaries.run("client-example", ["--user", "u"]).code == 64)
        #expect(try Binaries.run("client-example", ["--snapshot", Self.store, "--show", "nope", "--exposures", "/dev/null"]).code == 64)
    }

    @Test func exportIsDeterministicAndListedInHelp() throws {
        for format in [["--format", "client"], ["--format", "growthbook"]] {
            let first = try Binaries.run("abconsole", ["--store", Self.store, "export"] + format)
            let second = try Binaries.run("abconsole", ["--store", Self.store, "export"] + format)
            #expect(first.code == 0 && first.stdout == second.stdout && first.stdout.hasSuffix("}\n"))
        }
        let help = try Binaries.run("abconsole", ["export", "--help"])
        #expect(help.stdout.hasPrefix("usage: abconsole export [EXP...] --format growthbook|client [--values names|payloads] [--out FILE] [--no-whitelist] [--watch]"))
        #expect(try Binaries.run("abconsole", ["--help"]).stdout.contains("\n  export "))
        // The sample store mixes experiments with payloads on every variant and with none: each serves its own.
        let payloads = try Binaries.run("abconsole", ["--store", Self.store, "export", "--format", "growthbook", "--values", "payloads"])
        #expect(payloads.code == 0)
        #expect(payloads.stdout.contains(##""app_color_scheme":{"defaultValue":{"accent":"#0a84ff","background":"#ffffff"}"##))
        #expect(payloads.stdout.contains(#""account_add_funds":{"defaultValue":"control""#))
        let watchless = try Binaries.run("abconsole", ["--store", Self.store, "export", "--format", "client", "--watch"])
        #expect(watchless.code == 64 && watchless.stderr.contains("--watch needs --out FILE"))
        let mixed = try Binaries.run("abconsole", ["--store", Self.store, "export", "--format", "client", "--values", "names"])
        #expect(mixed.code == 64)
        let missing = try Binaries.run("abconsole", ["--store", "/no/such/store.json", "export", "--format", "client"])
        #expect(missing.code == 66)
    }

    struct InspectRow: Decodable {
        let experiment: String
        let variant: String
    }
}
