import ExperimentCore
import ExperimentEditing
import Foundation
import Testing
@testable import abconsole

/// A merge conflict carries THEIRS as changes; the CLI words them as its own commands: each line is
/// one the command table parses, `merge` prints them, and running them on OURS takes THEIRS.
struct ConflictCommandTests {
    /// Every change a conflict can carry, with the command (its first words) that makes it.
    static let worded: [(Change, String)] = {
        let plan = RolloutPlan(steps: [["control": Weight(buckets: 9_000), "treat": Weight(buckets: 1_000)]], holdSeconds: 3_600)
        return [
            (.create(ExperimentDraft(key: "alpha", type: .device, variants: [("control", Weight(buckets: 10_000)), ("treat", .zero)], control: "control",
                                     salt: "s'alt", description: "why")), "create"),
            (.delete(experiment: "alpha"), "delete"),
            (.addVariant(experiment: "alpha", name: "blue", payload: nil), "add-variant"),
            (.addVariant(experiment: "alpha", name: "blue", payload: .object(["c": .number(1)])), "add-variant"),
            (.setPayload(experiment: "alpha", variant: "treat", payload: .string("x")), "set-payload"),
            (.setPayload(experiment: "alpha", variant: "treat", payload: nil), "set-payload"),
            (.setDescription(experiment: "alpha", description: ""), "set-description"),
            (.start(experiment: "alpha"), "start"),
            (.pause(experiment: "alpha"), "pause"),
            (.ramp(experiment: "alpha", weights: ["treat": Weight(buckets: 10_000), "control": .zero]), "ramp"),
            (.whitelistAdd(experiment: "alpha", subject: "user-1", variant: "treat", note: ""), "whitelist add"),
            (.whitelistAdd(experiment: "alpha", subject: "user-1", variant: "treat", note: "n", replace: true), "whitelist add"),
            (.whitelistNote(experiment: "alpha", subject: "user-1", note: "n"), "whitelist note"),
            (.whitelistRemove(experiment: "alpha", subject: "user-1"), "whitelist remove"),
            (.resolve(experiment: "alpha", winner: "treat"), "resolve"),
            (.setMetrics(experiment: "alpha", metrics: ExperimentMetrics(goal: NamedMetric(metric: "purchase"),
                                                                         guardrails: [NamedMetric(metric: "refund", direction: .decrease)])), "set-metrics"),
            (.setMetrics(experiment: "alpha", metrics: .none), "set-metrics"),
            (.setPlan(experiment: "alpha", plan: plan), "ramp-plan"),
            (.edit(experiment: "alpha", .clearPlan), "ramp-plan"),
            (.edit(experiment: "alpha", .pausePlan), "ramp-plan"),
            (.edit(experiment: "alpha", .resumePlan), "ramp-plan"),
        ]
    }()

    @Test func everyWordedChangeIsALineTheCommandTableParses() throws {
        for (change, name) in Self.worded {
            let words = try #require(ChangeCommandLine.words(change, order: ["control", "treat"]), "\(change) has no command")
            #expect(words.joined(separator: " ").hasPrefix(name + " "), "\(words)")
            switch try parseCommandLine(words, commands: commandTable) {
            case .command(let spec, _): #expect(spec.name == name, "\(words) parses as \(spec.name)")
            default: Issue.record("\(words) does not parse as a command")
            }
        }
    }

    @Test func changesNoCommandMakesAreEditedByHand() {
        let unworded: [Change] = [.resolve(experiment: "alpha", winner: "treat", forced: "evidence"), .resalt(experiment: "alpha", salt: "s"),
                                  .whitelistImport(experiment: "alpha", rows: []), .edit(experiment: "alpha", .advancePlan(reason: "r"))]
        for change in unworded { #expect(ChangeCommandLine.words(change, order: []) == nil, "\(change)") }
        #expect(ChangeCommandLine.lines([.start(experiment: "alpha"), .resalt(experiment: "alpha", salt: "s")], order: []) == nil)
        #expect(ChangeCommandLine.lines([], order: []) == nil)
    }

    @Test func weightsAreWordedInTheirsVariantOrder() {
        let ramp = Change.ramp(experiment: "alpha", weights: ["a": .zero, "control": Weight(buckets: 10_000), "blue": .zero])
        #expect(ChangeCommandLine.words(ramp, order: ["control", "blue"]) == ["ramp", "alpha", "control=100", "blue=0", "a=0"])
    }

    /// BASE, OURS and THEIRS in the sandbox, changed so that each kind of unit conflicts.
    static func conflictedSides(_ sandbox: Sandbox) -> (base: String, ours: String, theirs: String) {
        let (base, ours, theirs) = (sandbox.path("base.json"), sandbox.path("ours.json"), sandbox.path("theirs.json"))
        func on(_ path: String, _ arguments: [String]) {
            let result = CLI.run(["--store", path] + arguments)
            #expect(result.code == 0, "\(arguments): \(result.stderr)")
        }
        on(base, ["create", "alpha", "--type", "user", "--variants", "control=50,treat=50", "--description", "d0"])
        on(base, ["start", "alpha"])
        on(base, ["whitelist", "add", "alpha", "user-1", "treat", "--note", "n 1"])
        on(base, ["create", "beta", "--type", "device", "--variants", "a=30,b=70", "--control", "b", "--salt", "s'alt"])
        on(base, ["create", "eps", "--type", "user", "--variants", "control=100"])
        on(base, ["create", "gamma", "--type", "user", "--variants", "control=50,treat=50"])
        for side in [ours, theirs] { try? FileManager.default.copyItem(atPath: base, toPath: side) }
        on(ours, ["ramp", "alpha", "control=80", "treat=20"])
        on(ours, ["set-description", "alpha", "ours"])
        on(ours, ["set-payload", "alpha", "treat", "{\"c\":1}"])
        on(ours, ["whitelist", "add", "alpha", "user-1", "control", "--replace", "--note", "o"])
        on(ours, ["whitelist", "add", "alpha", "user-2", "control", "--note", "o 2"])
        on(ours, ["set-metrics", "alpha", "--goal", "purchase"])
        on(ours, ["delete", "beta"])
        on(ours, ["set-description", "eps", "ours eps"])
        on(ours, ["ramp-plan", "gamma", "control=90,treat=10", "control=50,treat=50"])
        on(theirs, ["add-variant", "alpha", "blue"])
        on(theirs, ["ramp", "alpha", "control=40", "treat=40", "blue=20"])
        on(theirs, ["pause", "alpha"])
        on(theirs, ["set-description", "alpha", "it's theirs"])
        on(theirs, ["set-payload", "alpha", "treat", "{\"c\":\"two words\"}"])
        on(theirs, ["whitelist", "remove", "alpha", "user-1"])
        on(theirs, ["whitelist", "add", "alpha", "user-2", "treat", "--note", "t 2"])
        on(theirs, ["set-metrics", "alpha", "--goal", "signup", "--guardrail", "refund:decrease"])
        on(theirs, ["set-description", "beta", "theirs beta"])
        on(theirs, ["delete", "eps"])
        on(theirs, ["ramp-plan", "gamma", "control=95,treat=5", "control=80,treat=20", "--hold", "1h", "--min-subjects", "10"])
        return (base, ours, theirs)
    }

    @Test func mergePrintsTheCommandsThatTakeTheirs() throws {
        let sandbox = try Sandbox()
        let (base, ours, theirs) = Self.conflictedSides(sandbox)
        let result = CLI.run(["merge", base, ours, theirs, "--out", sandbox.path("merged.json")])
        #expect(result.code == 1, "\(result.stderr)")
        let commands = result.lines.filter { $0.hasPrefix("    to take THEIRS: ") }.map { String($0.dropFirst("    to take THEIRS: ".count)) }
        #expect(commands == [
            "abconsole add-variant alpha blue && abconsole ramp alpha control=40 treat=40 blue=20 && abconsole pause alpha",
            "abconsole set-description alpha 'it'\\''s theirs'",
            "abconsole set-metrics alpha --clear --goal signup --guardrail refund:decrease",
            "abconsole set-payload alpha treat '{\"c\":\"two words\"}'",
            "abconsole whitelist remove alpha user-1",
            "abconsole whitelist add alpha user-2 treat --note 't 2' --replace",
            "abconsole create beta --type device --variants a=30,b=70 --control b --salt 's'\\''alt' --description 'theirs beta'",
            "abconsole delete eps",
            "abconsole ramp-plan gamma control=95,treat=5 control=80,treat=20 --hold 1h --min-subjects 10 --on-guardrail rollback --on-srm hold",
        ])
    }

    @Test func runningThePrintedCommandsOnOursTakesTheirs() throws {
        let sandbox = try Sandbox()
        let (base, ours, theirs) = Self.conflictedSides(sandbox)
        let merged = CLI.run(["merge", base, ours, theirs, "--out", sandbox.path("merged.json"), "--json"])
        let conflicts = try merged.json()["conflicts"].elements
        #expect(conflicts.count == 9, "\(merged.stdout)")
        // Each printed line run by a POSIX shell on OURS, with `abconsole` the binary under test.
        let path = CLI.executable.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        for conflict in conflicts {
            let command = try #require(conflict["command"].stringValue)
            let ran = CLI.spawn(URL(fileURLWithPath: "/bin/sh"), ["-c", command], env: ["PATH": path, "ABCONSOLE_STORE": ours]).wait()
            #expect(ran.code == 0, "`\(command)`: \(ran.stderr)")
        }
        // Every unit now merges cleanly but the allocation, whose words agree: a ramp moves the fewest
        // subjects, so OURS's bucket ranges are not THEIRS's layout (settling it takes THEIRS's layout).
        let again = try CLI.run(["merge", base, ours, theirs, "--out", sandbox.path("again.json"), "--json"]).json()["conflicts"].elements
        #expect(again.map { $0["unit"].stringValue } == ["allocation"], "\(again)")
        #expect(again.first.map { $0["ours"].stringValue == $0["theirs"].stringValue } == true, "\(again)")
    }
}
