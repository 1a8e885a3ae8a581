import Foundation

/// What to run and how big: `abconsole-bench [--scenario NAME[,NAME]] [--runs N] [--size F] [--abconsole PATH] [--keep]`.
struct Options {
    var scenarios: Set<String> = Options.all
    var runs = 5
    /// Runs of the multi-second scenarios (big store), at most.
    var heavyRuns = 3
    var size = 1.0
    var binary: String?
    var keep = false

    static let all: Set<String> = ["bucketing", "decision", "batch", "store", "console", "peer", "client", "results", "shapes", "git", "export", "serve", "serve-reload"]

    func scaled(_ count: Int) -> Int { max(1, Int((Double(count) * size).rounded())) }
    var workingSet: Int { 16_384 }
    var bucketingAssignments: Int { scaled(4_000_000) }
    var decisions: Int { scaled(2_000_000) }
    var batchSubjects: Int { scaled(1_000_000) }
    var storeExperiments: Int { 1000 }
    var storeWhitelist: Int { scaled(1_000_000) }
    var importRows: Int { scaled(1_000_000) }
    var consoleExperiments: Int { scaled(10_000) }

    static let usage = """
    usage: abconsole-bench [--scenario NAME[,NAME...]] [--runs N] [--size F] [--abconsole PATH] [--keep]
      scenarios: bucketing, decision, batch, store, console, peer, client, results, shapes, git, export, serve, serve-reload (default: all)
      --runs N      runs per figure; the median is printed (default 5; big-store figures at most 3)
      --size F      scale the benchmark's sizes (1 = 1,000,000 subjects / whitelist entries; 0.1 for a quick look)
      --abconsole   the release abconsole binary to spawn (default: beside this executable)
      --keep        keep the generated data directory
    """

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        func value(_ name: String) throws -> String {
            guard let value = rest.popFirst() else { throw UsageError(message: "\(name) needs a value") }
            return value
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--scenario":
                let names = Set(try value(argument).split(separator: ",").map(String.init))
                guard names.isSubset(of: Options.all) else { throw UsageError(message: "unknown scenario: \(names.subtracting(Options.all).sorted().joined(separator: ", "))") }
                scenarios = names
            case "--runs":
                guard let runs = Int(try value(argument)), runs > 0 else { throw UsageError(message: "--runs needs a positive number") }
                self.runs = runs
                heavyRuns = min(3, runs)
            case "--size":
                guard let size = Double(try value(argument)), size > 0 else { throw UsageError(message: "--size needs a positive number") }
                self.size = size
            case "--abconsole": binary = try value(argument)
            case "--keep": keep = true
            case "-h", "--help":
                print(Options.usage)
                exit(0)
            default: throw UsageError(message: "unknown option \(argument)")
            }
        }
    }
}

struct UsageError: Error { let message: String }

if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "--child" { runChildMode(Array(CommandLine.arguments.dropFirst(2))) }

let options: Options
do {
    options = try Options(Array(CommandLine.arguments.dropFirst()))
} catch let error as UsageError {
    FileHandle.standardError.write(Data("abconsole-bench: \(error.message)\n\(Options.usage)\n".utf8))
    exit(64)
}

let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
let sibling = executable.deletingLastPathComponent().appendingPathComponent("abconsole").path
let binary = options.binary ?? (access(sibling, X_OK) == 0 ? sibling : nil)
let directory = NSTemporaryDirectory() + "abconsole-bench-\(getpid())"
try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)

let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?.split(separator: "\n")
    .first { $0.hasPrefix("model name") }.map { String($0.split(separator: ":", maxSplits: 1)[1]).trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
print("abconsole-bench: \(cpu), \(ProcessInfo.processInfo.activeProcessorCount) cores, load \(load)")
print("medians of \(options.runs) runs (big-store figures: \(options.heavyRuns)); in-process rates use this thread's CPU time, spawned commands wall time")
print("abconsole binary: \(binary ?? "not found (build it: swift build -c release)"); data in \(directory)")

/// Runs scenario `name` when it was asked for and the release `abconsole` it spawns is there;
/// without the binary, prints the scenario's heading and why it was skipped.
func spawning(_ name: String, heading: String, _ run: (String) -> Void) {
    guard options.scenarios.contains(name) else { return }
    guard let binary else {
        Report.section(heading)
        Report.note("skipped: no abconsole binary (swift build -c release, or --abconsole PATH)")
        return
    }
    run(binary)
}

if options.scenarios.contains("bucketing") { BucketingScenario.run(options) }
var bigStore: BigStoreData?
if !options.scenarios.isDisjoint(with: ["decision", "store"]) {
    let build = Timing.of { bigStore = BigStoreData(experiments: options.storeExperiments, whitelist: options.storeWhitelist) }
    print("\n(generated the big store in memory in \(Report.number(build.wall)) s)")
}
if options.scenarios.contains("decision"), let bigStore { DecisionScenario.run(options, store: bigStore) }
spawning("batch", heading: "3. Batch assign end to end") { BatchAssignScenario.run(options, binary: $0, directory: directory) }
if options.scenarios.contains("store"), let bigStore { BigStoreScenario.run(options, store: bigStore, binary: binary, directory: directory) }
bigStore = nil
if options.scenarios.contains("console") { ConsoleScenario.run(options, binary: binary, directory: directory) }
if options.scenarios.contains("peer") { PeerScenario.run(options, directory: directory) }
if options.scenarios.contains("client") {
    ClientScenario.run(options)
    ClientLoadScenario.run(options, directory: directory)
    ClientRefreshScenario.run(options)
}
if options.scenarios.contains("results") { ResultsScenario.run(options, binary: binary, directory: directory) }
spawning("shapes", heading: "8. Store shapes") { ShapesScenario.run(options, binary: $0, directory: directory) }
spawning("git", heading: "9. git: merge and diff") { GitScenario.run(options, binary: $0, directory: directory) }
spawning("export", heading: "10. Export") { ExportScenario.run(options, binary: $0, directory: directory) }
spawning("serve", heading: "11. Serve") { ServeScenario.run(options, binary: $0, directory: directory) }
spawning("serve-reload", heading: "12. Serve reload") { ServeReloadScenario.run(options, binary: $0, directory: directory) }

if !options.keep { try? FileManager.default.removeItem(atPath: directory) }
print("")
print("targets missed: \(Report.misses); cross-check failures: \(Report.failures.count)")
exit(Report.failures.isEmpty ? 0 : 1)
