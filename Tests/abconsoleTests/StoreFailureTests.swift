#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing

/// A missing, corrupted or locked store: the right exit code, a message with the JSON path, no byte written.
@Suite struct StoreFailureTests {
    static let readCommands: [[String]] = [
        ["list"], ["list", "--json"], ["show", "running_exp"], ["history"], ["validate"], ["whitelist", "list", "running_exp"],
        ["inspect", "--user", "u"], ["assign", "running_exp", "--user", "u"], ["ramp", "running_exp", "green=60", "control=40", "--dry-run"],
    ]
    static let writeCommands: [[String]] = [
        ["start", "draft_exp"], ["whitelist", "add", "running_exp", "u", "green"], ["ramp", "running_exp", "green=60", "control=40"],
        ["create", "new_exp", "--type", "user", "--variants", "a=50"], ["delete", "draft_exp"], ["resolve", "running_exp", "green", "--yes"],
    ]

    @Test(arguments: readCommands + writeCommands.filter { $0[0] != "create" })
    func aMissingStoreIs66AndNothingIsCreated(_ arguments: [String]) throws {
        let sandbox = try Sandbox()
        let result = sandbox.refused(arguments, code: 66,
                                     "no store at \(sandbox.store); create an experiment with `abconsole create` or point --store at an existing file")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(sandbox.files().isEmpty, "created \(sandbox.files())")
    }

    @Test func aMissingStoreInAMissingDirectory() throws {
        let sandbox = try Sandbox()
        sandbox.store = sandbox.path("no/such/dir/experiments.json")
        sandbox.refused(["start", "x"], code: 66, "no store at \(sandbox.store)")
        sandbox.refused(["whitelist", "add", "x", "u", "v"], code: 66, "no store at \(sandbox.store)")
        sandbox.refused(["create", "x", "--type", "user", "--variants", "a=50"], code: 73,
                        "cannot create the store \(sandbox.store): open lock file failed: No such file or directory")
        #expect(sandbox.files().isEmpty)
    }

    /// A way to spoil the fixture store, and the problem line it must produce.
    struct Corruption: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let spoil: @Sendable (String) -> String
        let problem: String
    }

    static let corruptions: [Corruption] = [
        Corruption(testDescription: "truncated", spoil: { String($0.prefix($0.count / 2)) }, problem: "  $: not valid JSON"),
        Corruption(testDescription: "not JSON", spoil: { _ in "experiments: yes\n" }, problem: "  $: not valid JSON at line 1, column 1: expected a value"),
        Corruption(testDescription: "empty", spoil: { _ in "" }, problem: "  $: not valid JSON at line 1, column 1: the file ends early; expected a value"),
        Corruption(testDescription: "a comma lost in a hand edit",
                   spoil: { $0.replacingFirst("\"salt\": \"draft_exp\",", with: "\"salt\": \"draft_exp\"") },
                   problem: "  $: not valid JSON at line 10, column 7: expected `,` or `}`"),
        Corruption(testDescription: "merge conflict markers",
                   spoil: { $0.replacingFirst("      \"status\": \"draft\",\n", with: "<<<<<<< HEAD\n      \"status\": \"draft\",\n=======\n      \"status\": \"running\",\n>>>>>>> theirs\n") },
                   problem: "  $: git conflict markers at line 10: the store was merged line by line, without the abconsole merge driver. Merge it by meaning"),
        Corruption(testDescription: "schema version 2", spoil: { $0.replacingOccurrences(of: "\"schema_version\": 1", with: "\"schema_version\": 2") },
                   problem: "  $.schema_version: schema version 2 is not supported; this abconsole reads version 1"),
        Corruption(testDescription: "schema version 2 with an unknown layout", spoil: { _ in #"{"schema_version": 2, "flags": {}}"# },
                   problem: "  $.schema_version: schema version 2 is not supported; this abconsole reads version 1"),
        Corruption(testDescription: "weight without its buckets",
                   spoil: { $0.replacingFirst("\"weight\": 50}", with: "\"weight\": 40}") },
                   problem: "  $.experiments[0].variants[0].ranges: the ranges hold 5000 buckets but the weight 40 % needs 4000"),
        Corruption(testDescription: "weight with three decimals",
                   spoil: { $0.replacingFirst("\"weight\": 50}", with: "\"weight\": 50.001}") },
                   problem: "  $.experiments[0].variants[0].weight: weight 50.001 must be 0–100 with at most two decimals"),
        Corruption(testDescription: "unknown status", spoil: { $0.replacingOccurrences(of: "\"status\": \"draft\"", with: "\"status\": \"archived\"") },
                   problem: "  $.experiments[0].status"),
        Corruption(testDescription: "missing field", spoil: { $0.replacingOccurrences(of: "\"salt\": \"draft_exp\",", with: "") },
                   problem: "  $.experiments[0]: missing field `salt`"),
        Corruption(testDescription: "bad key", spoil: { $0.replacingOccurrences(of: "\"key\": \"draft_exp\"", with: "\"key\": \"Draft Exp\"") },
                   problem: "  $.experiments[0].key: `Draft Exp` breaks the key rule [a-z0-9][a-z0-9_.-]{0,63}"),
    ]

    @Test(arguments: corruptions.filter { !$0.problem.isEmpty }, readCommands + writeCommands)
    func aCorruptedStoreIsRefusedAndNeverOverwritten(_ corruption: Corruption, _ arguments: [String]) throws {
        let original = String(decoding: Fixture.storeBytes, as: UTF8.self)
        let spoiled = corruption.spoil(original)
        try #require(spoiled != original)
        let sandbox = try Sandbox(storeBytes: Data(spoiled.utf8))
        // A change says the store was left as it was; a read has nothing to leave, and says only what to do.
        let left = Self.writeCommands.contains(arguments) ? "it was not changed — fix it" : "fix it"
        let result = sandbox.refused(arguments, code: 65, "the store \(sandbox.store) is not valid (1 problem); \(left) by hand or restore it from version control:\n")
        #expect(result.stderr.contains("\n" + corruption.problem), "\(result.stderr)")
        #expect(sandbox.storeBytes() == Data(spoiled.utf8))
    }

    @Test func everyProblemIsListedWithItsPath() throws {
        var text = String(decoding: Fixture.storeBytes, as: UTF8.self)
        text = text.replacingOccurrences(of: "\"key\": \"draft_exp\"", with: "\"key\": \"Draft\"")
        text = text.replacingOccurrences(of: "\"control\": \"control\",\n      \"created_at\"", with: "\"control\": \"blue\",\n      \"created_at\"")
        let sandbox = try Sandbox(storeBytes: Data(text.utf8))
        let result = sandbox.refused(["validate"], code: 65, "is not valid (")
        let problems = result.stderr.split(separator: "\n").dropFirst().map(String.init)
        #expect(problems.contains("  $.experiments[0].key: `Draft` breaks the key rule [a-z0-9][a-z0-9_.-]{0,63}"))
        for index in 0..<4 {
            #expect(problems.contains("  $.experiments[\(index)].control: `blue` is not one of the variants"))
        }
        #expect(problems.count == 5)
    }

    @Test func aStoreThatIsADirectoryIsUnreadable() throws {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(atPath: sandbox.store, withIntermediateDirectories: false)
        sandbox.refused(["list"], code: 66, "cannot read the store \(sandbox.store): it is a directory, not a regular file")
    }

    @Test func aLockHeldByAnotherProcessTimesOutWith75() throws {
        let sandbox = try Fixture.sandbox()
        let fd = open(sandbox.store + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        try #require(fd >= 0)
        defer { close(fd) }
        try #require(flock(fd, LOCK_EX | LOCK_NB) == 0)
        let started = Date()
        for arguments in [["whitelist", "add", "running_exp", "u", "green"], ["start", "draft_exp"]] {
            let result = sandbox.refused(arguments, code: 75,
                                         "another process has held the lock on \(sandbox.store) for over 0.3 s; try again, or find the stuck process (e.g. `fuser \(sandbox.store).lock`)",
                                         env: ["ABCONSOLE_LOCK_TIMEOUT": "0.3"])
            #expect(result.stderr.split(separator: "\n").count == 1)
        }
        #expect(Date().timeIntervalSince(started) >= 0.6)
        // Reads take no lock.
        #expect(sandbox.ok(["list", "--json"], env: ["ABCONSOLE_LOCK_TIMEOUT": "0.3"]).code == 0)
        // Once the lock is released, the same change goes through.
        flock(fd, LOCK_UN)
        sandbox.ok(["whitelist", "add", "running_exp", "u", "green"], env: ["ABCONSOLE_LOCK_TIMEOUT": "0.3"])
    }

    @Test func aLockHeldByAnotherProgramTimesOut() throws {
        let flockTool = URL(fileURLWithPath: "/usr/bin/flock")
        try #require(FileManager.default.isExecutableFile(atPath: flockTool.path))
        let sandbox = try Fixture.sandbox()
        let lock = sandbox.store + ".lock"
        let ready = sandbox.path("ready")
        // `flock LOCK sh` holds the lock while the shell, which becomes `sleep`, runs; the shell writes its pid once it holds it.
        let holder = CLI.spawn(flockTool, [lock, "sh", "-c", "echo $$ > \"$0.tmp\"; mv \"$0.tmp\" \"$0\"; exec sleep 5 >/dev/null 2>&1", ready])
        var sleeper: pid_t = 0
        defer {
            if sleeper > 0 { kill(sleeper, SIGTERM) }
            let result = holder.wait()
            #expect(result.stderr.isEmpty)
        }
        let deadline = Date().addingTimeInterval(5)
        while sleeper == 0, Date() < deadline {
            if let text = try? String(contentsOfFile: ready, encoding: .utf8) { sleeper = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 }
            if sleeper == 0 { usleep(5_000) }
        }
        try #require(sleeper > 0)
        sandbox.refused(["pause", "running_exp"], code: 75, "another process has held the lock", env: ["ABCONSOLE_LOCK_TIMEOUT": "0.3"])
    }
}

extension String {
    /// The string with the first occurrence of `target` replaced.
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
