import ExperimentCore
import ExperimentStore
import Foundation

/// Scenario 9: git's merge driver and diff on a store of one experiment with 1,000,000 whitelist
/// entries: `merge BASE OURS THEIRS` within 3× `validate`'s time and 3× the file in peak memory,
/// `diff OLD NEW` within 2× `validate`'s time (docs/git.md, Performance).
enum GitScenario {
    static func run(_ options: Options, binary: String, directory: String) {
        let entries = options.storeWhitelist
        Report.section("9. git: merge and diff of a store with \(entries) whitelist entries")
        let base = directory + "/git-base.json", ours = directory + "/git-ours.json", theirs = directory + "/git-theirs.json"
        guard makeSides(entries: entries, binary: binary, base: base, ours: ours, theirs: theirs) else {
            Report.check(false, "the git scenario's stores are made")
            return
        }
        let fileMiB = Double((try? FileManager.default.attributesOfItem(atPath: base))?[.size] as? Int ?? 0) / 1_048_576
        Report.note("file: \(Report.number(fileMiB)) MiB; OURS ramps and adds an entry, THEIRS removes one entry and adds another")
        let runs = max(1, min(options.runs, options.heavyRuns))
        let merged = directory + "/git-merged.json", plainMerged = directory + "/git-merged-plain.json"
        let conflicts = directory + "/git-merge-out.txt", plainConflicts = directory + "/git-merge-plain-out.txt"
        var validateRuns: [ChildRun] = [], mergeRuns: [ChildRun] = [], diffRuns: [ChildRun] = []
        for _ in 0..<runs {
            validateRuns.append(spawn(binary, ["--store", base, "validate"]))
            unlink(merged)
            mergeRuns.append(spawn(binary, ["merge", base, ours, theirs, "--out", merged, "--name", "store.json"], stdout: conflicts))
            diffRuns.append(spawn(binary, ["diff", base, ours], stdout: directory + "/git-diff.txt"))
        }
        // The plain path (every file read whole), once: the reference the merge from bytes must equal.
        var environment = ProcessInfo.processInfo.environment
        environment["ABCONSOLE_PLAIN_MERGE"] = "1"
        let plainMerge = spawn(binary, ["merge", base, ours, theirs, "--out", plainMerged, "--name", "store.json"], stdout: plainConflicts,
                               environment: environment)
        let plainDiff = spawn(binary, ["diff", base, ours], stdout: directory + "/git-diff-plain.txt", environment: environment)

        Report.check(validateRuns.allSatisfy { $0.status == 0 } && mergeRuns.allSatisfy { $0.status == 0 } && diffRuns.allSatisfy { $0.status == 0 },
                     "validate, merge and diff succeed (exit \(validateRuns.map(\.status)) \(mergeRuns.map(\.status)) \(diffRuns.map(\.status)))")
        Report.check(plainMerge.status == 0 && same(merged, plainMerged) && same(conflicts, plainConflicts),
                     "the merged file and the merge's output are byte for byte the plain merge's")
        Report.check(same(directory + "/git-diff.txt", directory + "/git-diff-plain.txt"), "diff prints exactly the plain diff's changes")
        Report.check(spawn(binary, ["--store", merged, "validate"]).status == 0, "the merged store validates")

        let validate = median(validateRuns.map(\.wall))
        func peak(_ runs: [ChildRun]) -> Double { median(runs.map { Double($0.peakKiB) / 1024 }) }
        Report.figure("abconsole validate (one file) wall", validate, "s",
                      detail: "CPU \(Report.number(median(validateRuns.map(\.cpu)))) s, peak \(Report.number(peak(validateRuns))) MiB")
        let merge = median(mergeRuns.map(\.wall))
        Report.figure("abconsole merge BASE OURS THEIRS wall", merge, "s",
                      ratio: Ratio(value: merge / validate, label: "time ÷ validate", target: .atMost(3)),
                      detail: "CPU \(Report.number(median(mergeRuns.map(\.cpu)))) s; plain path \(Report.number(plainMerge.wall)) s, \(Report.number(Double(plainMerge.peakKiB) / 1024)) MiB")
        Report.figure("peak memory, merge", peak(mergeRuns), "MiB",
                      ratio: Ratio(value: peak(mergeRuns) / fileMiB, label: "peak ÷ file size", target: .atMost(3)))
        let diff = median(diffRuns.map(\.wall))
        Report.figure("abconsole diff OLD NEW wall", diff, "s",
                      ratio: Ratio(value: diff / validate, label: "time ÷ validate", target: .atMost(2)),
                      detail: "CPU \(Report.number(median(diffRuns.map(\.cpu)))) s, peak \(Report.number(peak(diffRuns))) MiB (\(Report.number(peak(diffRuns) / fileMiB))× the file); plain path \(Report.number(plainDiff.wall)) s")
    }

    /// BASE: one running experiment (`big`, control=50,treat=50) with `entries` whitelist entries, written
    /// in this process; OURS ramps it and adds an entry, THEIRS removes one and adds another, through the CLI.
    static func makeSides(entries: Int, binary: String, base: String, ours: String, theirs: String) -> Bool {
        unlink(base)
        var environment = ProcessInfo.processInfo.environment
        environment["ABCONSOLE_OPERATOR"] = "bench"
        func cli(_ store: String, _ arguments: [String]) -> Bool {
            spawn(binary, ["--store", store] + arguments, environment: environment).status == 0
        }
        guard cli(base, ["create", "big", "--type", "user", "--variants", "control=50,treat=50"]), cli(base, ["start", "big"]),
              var snapshot = try? StoreFile(path: base).load(), var experiment = snapshot.experiments["big"] else { return false }
        let at = Date(timeIntervalSince1970: 1_767_225_600)
        var whitelist: [SubjectID: WhitelistEntry] = [:]
        whitelist.reserveCapacity(entries)
        for index in 0..<entries {
            let subject = "user-" + String(repeating: "0", count: max(0, 7 - String(index).count)) + String(index)
            whitelist[SubjectID(subject)] = WhitelistEntry(subject: subject, variant: index % 2 == 1 ? "control" : "treat", note: "n",
                                                           addedBy: "bench", addedAt: at)
        }
        experiment.whitelist = whitelist
        snapshot.experiments["big"] = experiment
        snapshot.history.append(HistoryEntry(at: at, operatorName: "bench", experiment: "big", action: .whitelistImport,
                                             before: nil, after: "\(entries) entries"))
        guard (try? StoreFile.encode(snapshot).write(to: URL(fileURLWithPath: base))) != nil else { return false }
        for side in [ours, theirs] {
            unlink(side)
            guard (try? FileManager.default.copyItem(atPath: base, toPath: side)) != nil else { return false }
        }
        return cli(ours, ["ramp", "big", "control=80", "treat=20"]) && cli(ours, ["whitelist", "add", "big", "extra-ours", "treat"])
            && cli(theirs, ["whitelist", "remove", "big", "user-0000001"]) && cli(theirs, ["whitelist", "add", "big", "extra-theirs", "control", "--note", "x"])
    }

    static func same(_ one: String, _ two: String) -> Bool {
        guard let a = FileManager.default.contents(atPath: one), let b = FileManager.default.contents(atPath: two) else { return false }
        return a == b
    }
}
