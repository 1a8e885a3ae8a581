import ConsoleRuntime
import ConsoleUI
import ExperimentCore
import ExperimentResults
import ResultsReading
import ExperimentStore
import Foundation

/// Opens the interactive console on a store: load first, then the terminal, then the key loop.
enum ConsoleLauncher {
    /// Runs the console until the user quits; returns the exit code.
    ///
    /// The store is read and the terminal checked before the screen opens, so a missing store or a
    /// pipe instead of a terminal is one clear error on stderr, never a garbled screen.
    /// `now` is the command line's clock (`ABCONSOLE_NOW` when set), so the console stamps changes and
    /// ends results windows exactly as the subcommands do.
    /// `readParallelism` is how many threads read the event logs for the results screen.
    static func run(store: StoreFile, operatorName: String, readOnly: Bool, now: @escaping () -> Date, eventPaths: EventPaths? = nil,
                    readParallelism: ReadParallelism) throws -> Int32 {
        let session = try ConsoleSession(store: store, operatorName: operatorName, readOnly: readOnly, clock: now, eventPaths: eventPaths,
                                         readParallelism: readParallelism)
        SignalFlag.install()
        let terminal: NcursesTerminal
        do {
            terminal = try NcursesTerminal.open()
        } catch {
            // One line, without the usage hint of a mistyped command: the fix is a terminal, not other arguments.
            StandardStreams.writeError("abconsole: \(SafeOutput.text(error.message))\n")
            return CLIError.Code.usage.rawValue
        }
        let code = runTerminalLoop(
            terminal: terminal,
            render: session.render,
            resize: session.resize,
            handle: { key in
                session.send(key)
                return session.exitCode.map { .exit($0) } ?? .continue
            },
            tick: session.tick
        )
        // A save that already holds the lock finishes; one still waiting for it stops.
        session.finishJobs(seconds: 5)
        return code
    }
}

/// Where `abconsole demo` finds the sample store: the package's sample-data/ folder.
enum SampleStore {
    static func locate(environment: [String: String]) -> String? {
        let relative = "sample-data/experiments.json"
        var candidates = [environment["ABCONSOLE_SAMPLE"], FileManager.default.currentDirectoryPath + "/" + relative].compactMap { $0 }
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<5 {
            candidates.append(directory.appendingPathComponent(relative).path)
            directory.deleteLastPathComponent()
        }
        return candidates.first { FileManager.default.isReadableFile(atPath: $0) }
    }

    /// Removes the scratch directory holding the copy at `path` (its lock file and event logs too).
    static func remove(_ path: String) {
        try? FileManager.default.removeItem(at: URL(fileURLWithPath: path).deletingLastPathComponent())
    }

    /// Copies the sample store (and its `events/` logs) into a new scratch directory and returns the store copy's path.
    static func scratchCopy(of sample: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("abconsole-demo-\(UUID().uuidString.prefix(8))")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let copy = directory.appendingPathComponent("experiments.json")
            try FileManager.default.copyItem(atPath: sample, toPath: copy.path)
            // The sample event logs beside it, so the results screen (`e`) has numbers at once.
            let events = URL(fileURLWithPath: sample).deletingLastPathComponent().appendingPathComponent("events")
            if FileManager.default.fileExists(atPath: events.path) {
                try FileManager.default.copyItem(at: events, to: directory.appendingPathComponent("events"))
            }
            return copy.path
        } catch {
            throw CLIError(code: .cannotCreate, message: "cannot make a scratch copy of the sample store in \(directory.path): \(error.localizedDescription)")
        }
    }
}
