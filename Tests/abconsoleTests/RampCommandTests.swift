import Foundation
import Testing

/// `ramp`, with `--json` and `--dry-run`.
@Suite struct RampCommandTests {
    @Test func rampJSONReportsTheMovedShareAndWeights() throws {
        let sandbox = try Fixture.sandbox()
        let ramp = try sandbox.ok(["ramp", "running_exp", "green=70", "control=30", "--json"]).json()
        #expect(ramp == ["moved_share": 0.2, "moved_buckets": 2000, "weights": ["control": 30, "green": 70], "dry_run": false])
        let shown = try sandbox.ok(["show", "running_exp", "--json"]).json()
        // The shrinking control releases its top buckets; green only grows, so none of its subjects move.
        #expect(shown["variants"] == [
            ["name": "control", "weight": 30, "ranges": [[0, 3000]], "payload": nil],
            ["name": "green", "weight": 70, "ranges": [[3000, 10000]], "payload": nil],
        ])
        #expect(shown["revision"] == 3)
    }

    @Test func dryRunWritesNothing() throws {
        let sandbox = try Fixture.sandbox()
        let before = sandbox.storeBytes()
        let files = sandbox.files()
        let ramp = try sandbox.ok(["ramp", "running_exp", "green=70", "control=30", "--dry-run", "--json"]).json()
        #expect(ramp == ["moved_share": 0.2, "moved_buckets": 2000, "weights": ["control": 30, "green": 70], "dry_run": true])
        sandbox.ok(["ramp", "running_exp", "control=0", "green=0", "--dry-run"])
        #expect(sandbox.storeBytes() == before)
        #expect(sandbox.files() == files)
    }

    @Test func dryRunPlainText() throws {
        let sandbox = try Fixture.sandbox()
        let before = sandbox.storeBytes()
        #expect(sandbox.ok(["ramp", "paused_exp", "control=40", "green=40", "--dry-run"]).stdout
            == "dry run: ramping `paused_exp` to control=40,green=40 would switch 20 % of subjects; nothing was written\n")
        #expect(sandbox.storeBytes() == before)
    }

    @Test func rampPlainTextAndHistory() throws {
        let sandbox = try Fixture.sandbox()
        #expect(sandbox.ok(["ramp", "draft_exp", "control=49.99"]).stdout
            == "ramped `draft_exp` to control=49.99,green=50; 0.01 % of subjects switched variant\n")
        let last = try sandbox.ok(["history", "--json"]).json().elements.last
        #expect(last?["action"] == "ramp")
        #expect(last?["before"] == "control=50,green=50")
        #expect(last?["after"] == "control=49.99,green=50")
    }

    @Test func rampIntoAndOutOfTheUnallocatedPool() throws {
        let sandbox = try Sandbox()
        sandbox.ok(["create", "e", "--type", "user", "--variants", "a=20,b=30,c=50"])
        var ramp = try sandbox.ok(["ramp", "e", "a=10", "b=10", "--json"]).json()
        #expect(ramp == ["moved_share": 0.3, "moved_buckets": 3000, "weights": ["a": 10, "b": 10, "c": 50], "dry_run": false])
        ramp = try sandbox.ok(["ramp", "e", "c=80", "--json"]).json()
        #expect(ramp == ["moved_share": 0.3, "moved_buckets": 3000, "weights": ["a": 10, "b": 10, "c": 80], "dry_run": false])
        let variants = try sandbox.ok(["show", "e", "--json"]).json()["variants"]
        #expect(variants == [
            ["name": "a", "weight": 10, "ranges": [[0, 1000]], "payload": nil],
            ["name": "b", "weight": 10, "ranges": [[2000, 3000]], "payload": nil],
            ["name": "c", "weight": 80, "ranges": [[1000, 2000], [3000, 10000]], "payload": nil],
        ])
    }

    @Test func aNewVariantIsAddedAtZeroThenRampedUp() throws {
        let sandbox = try Fixture.sandbox()
        sandbox.ok(["add-variant", "running_exp", "blue"])
        let ramp = try sandbox.ok(["ramp", "running_exp", "control=40", "green=40", "blue=20", "--json"]).json()
        #expect(ramp == ["moved_share": 0.2, "moved_buckets": 2000, "weights": ["control": 40, "green": 40, "blue": 20], "dry_run": false])
        #expect(try sandbox.ok(["show", "running_exp", "--json"]).json()["variants"][2]
            == ["name": "blue", "weight": 20, "ranges": [[4000, 5000], [9000, 10000]], "payload": nil])
        #expect(sandbox.ok(["validate"]).code == 0)
    }
}
