import ConsoleUI
import ExperimentCore
import ExperimentStore
import Foundation

/// Scenario 5: rendering the experiment list of a 10,000-experiment store, a filter keystroke, and
/// (with tmux) process start to first frame.
enum ConsoleScenario {
    static func run(_ options: Options, binary: String?, directory: String) {
        let count = options.consoleExperiments
        Report.section("5. Console: \(count) experiments, a 200×60 terminal")
        let pool = Fixtures.subjects(.short, count: 1000, seed: 5)
        let snapshot = Fixtures.store(experiments: count, whitelistTotal: 0, subjects: pool)
        let path = directory + "/console-store.json"
        _ = FileManager.default.createFile(atPath: path, contents: StoreFile.encode(snapshot))
        let state = AppState(snapshot: snapshot, storePath: path, operatorName: "bench")
        // The session keeps one row cache for its lifetime; so does the benchmark.
        let rows = RowCache()
        var filtering = state
        _ = ConsoleUpdate.update(&filtering, .key(.character("/")), now: Date(timeIntervalSince1970: 0), rows: rows)
        let repeats = 50
        var renderTimes: [Double] = [], keyTimes: [Double] = []
        var lastFrame: ScreenBuffer?
        for _ in 0..<options.runs {
            renderTimes.append(Timing.of {
                for _ in 0..<repeats { lastFrame = ConsoleView.render(state, rows: rows, width: 200, height: 60) }
            }.cpu / Double(repeats))
            keyTimes.append(Timing.of {
                for index in 0..<repeats {
                    // A different digit each time, so every keystroke filters afresh rather than hitting the cache.
                    var typed = filtering
                    _ = ConsoleUpdate.update(&typed, .key(.character(Character(String(index % 10)))), now: Date(timeIntervalSince1970: 0), rows: rows)
                    blackHole(ConsoleView.render(typed, rows: rows, width: 200, height: 60))
                }
            }.cpu / Double(repeats))
        }
        Report.figure("render the list frame (200×60)", median(renderTimes) * 1000, "ms", target: .atMost(1))
        Report.figure("one filter keystroke (update + render)", median(keyTimes) * 1000, "ms", target: .atMost(2))
        let shows = (0..<60).contains { row in (0..<200).map { lastFrame?[$0, row].text ?? " " }.joined().contains("exp_0000") }
        Report.check(shows, "the rendered frame lists exp_0000")
        firstFrame(options, binary: binary, store: path, directory: directory)
    }

    /// Start to first frame, in a private tmux server: spawn the console, poll the pane for the list.
    static func firstFrame(_ options: Options, binary: String?, store: String, directory: String) {
        guard let binary, let tmux = which("tmux") else {
            Report.note("process start to first frame: skipped (needs tmux and the abconsole binary)")
            return
        }
        let socket = "abconsole-bench-\(getpid())"
        var times: [Double] = []
        for run in 0..<max(1, min(options.runs, 5)) {
            let session = "first-frame-\(run)"
            let command = "\(binary) --store \(store) --operator bench"
            let start = Clock.wall()
            guard directSpawn(tmux, ["-L", socket, "new-session", "-d", "-s", session, "-x", "200", "-y", "60", command]).status == 0 else { break }
            var seen: Double?
            while Clock.wall() - start < 10 {
                if let pane = capture(tmux, ["-L", socket, "capture-pane", "-p", "-t", session], in: directory), pane.contains("exp_0000") {
                    seen = Clock.wall() - start
                    break
                }
                usleep(2_000)
            }
            _ = directSpawn(tmux, ["-L", socket, "kill-session", "-t", session])
            if let seen { times.append(seen) }
        }
        _ = directSpawn(tmux, ["-L", socket, "kill-server"])
        if times.isEmpty {
            Report.note("process start to first frame: the list never appeared in tmux within 10 s")
        } else {
            Report.figure("process start to first frame (tmux)", median(times) * 1000, "ms", target: .atMost(300),
                          detail: "polled every ~5 ms, includes tmux start")
        }
    }
}
