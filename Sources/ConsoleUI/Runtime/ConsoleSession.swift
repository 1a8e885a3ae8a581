import ExperimentCore
import ExperimentResults
import ExperimentStore
import Foundation

/// Runs the console over a real store: feeds keys to the update, performs its effects, renders.
///
/// No terminal here: the ncurses front hands keys in and paints what `render` returns, and story
/// tests drive the same session with key sequences over a store in a temp directory.
public final class ConsoleSession {
    public private(set) var state: AppState
    /// Set when an effect asked to quit.
    public private(set) var exitCode: Int32?
    private let store: StoreFile
    private let clock: () -> Date
    private var fingerprint: StoreFingerprint?
    private let loader = ResultsLoader()
    /// Where the event logs are (SPEC §8 defaults: `events/` beside the store).
    private let eventPaths: EventPaths

    /// Opens the session on `store`; throws when the store cannot be read or is invalid.
    public init(store: StoreFile, operatorName: String, readOnly: Bool = false, clock: @escaping () -> Date = Date.init,
                eventPaths: EventPaths? = nil) throws(StoreError) {
        self.store = store
        self.clock = clock
        self.eventPaths = eventPaths ?? EventPaths(besideStore: store.path)
        fingerprint = store.fingerprint()
        let snapshot = try store.load()
        state = AppState(snapshot: snapshot, storePath: store.path, operatorName: operatorName, readOnly: readOnly)
    }

    /// Handles one key and performs the effects it produced.
    public func send(_ key: Key) {
        dispatch(.key(key))
    }

    /// Types each character of `text` as a key (for tests and scripted input).
    public func type(_ text: String) {
        for character in text { send(.character(character)) }
    }

    /// Reloads the store when the file changed on disk (another operator or a script), and takes in
    /// what background loads have answered.
    public func tick() {
        for action in loader.poll() { dispatch(action) }
        let current = store.fingerprint()
        guard current != fingerprint else { return }
        fingerprint = current
        do {
            dispatch(.storeReloaded(try store.load()))
        } catch {
            dispatch(.storeUnreadable(message: error.message))
        }
    }

    /// Whether a background load is running (the terminal loop polls more often then).
    public var isBusy: Bool { loader.isBusy }

    /// Waits until background loads are done, then takes in their answers (tests and scripted runs).
    public func settle(timeout: Double = 10) {
        loader.waitUntilIdle(timeout: timeout)
        tick()
    }

    /// The screen for a terminal of `width` × `height`.
    public func render(width: Int, height: Int) -> ScreenBuffer {
        ConsoleView.render(state, width: width, height: height)
    }

    private func dispatch(_ action: Action) {
        var pending = ConsoleUpdate.update(&state, action)
        while !pending.isEmpty {
            let effect = pending.removeFirst()
            if let result = perform(effect) { pending += ConsoleUpdate.update(&state, result) }
        }
    }

    /// Performs one effect and returns the action carrying its result.
    private func perform(_ effect: Effect) -> Action? {
        switch effect {
        case .quit(let code):
            exitCode = code
            return nil
        case .reload:
            fingerprint = nil
            tick()
            return nil
        case .loadResults(let id, let key):
            guard let experiment = state.snapshot.experiments[key] else { return .resultsFailed(requestID: id, message: "no experiment `\(key)`") }
            let window = ResultsWindow.resolve(experiment, history: state.snapshot.history, now: clock())
            loader.start(id: id, request: AnalysisRequest(experiment: experiment, window: window,
                                                          exposuresPath: eventPaths.exposures, conversionsPath: eventPaths.conversions))
            return nil
        case .cancelResults(let id):
            loader.cancel(id: id)
            return nil
        case .apply(let change, let expectedRevision):
            return save { try self.store.apply(change, expectedRevision: expectedRevision, context: self.changeContext()) }
        case .importWhitelist(let experiment, let path, let expectedRevision):
            return save {
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw ConsoleError(message: "cannot read \(path): it does not exist or is not readable")
                }
                let rows = try WhitelistCSV.parse(data)
                return try self.store.apply(.whitelistImport(experiment: experiment, rows: rows), expectedRevision: expectedRevision, context: self.changeContext())
            }
        }
    }

    private func changeContext() -> ChangeContext {
        ChangeContext(operatorName: state.operatorName, now: Date(timeIntervalSince1970: clock().timeIntervalSince1970.rounded(.down)))
    }

    /// Runs a store transaction and turns its outcome or error into an action, with the fresh store.
    private func save(_ transaction: () throws -> ChangeOutcome) -> Action {
        do {
            let outcome = try transaction()
            fingerprint = store.fingerprint()
            return .changeApplied(message: outcome.message, snapshot: try store.load())
        } catch {
            let fresh = try? store.load()
            fingerprint = store.fingerprint()
            var isConflict = false
            if case .conflict? = error as? ExperimentError { isConflict = true }
            return .changeFailed(message: Self.describe(error), isConflict: isConflict, snapshot: fresh)
        }
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case let error as ExperimentError: error.message
        case let error as StoreError: error.message
        case let error as ConsoleError: error.message
        default: "unexpected failure: \(error)"
        }
    }
}

/// A failure the console reports in its status bar.
struct ConsoleError: Error {
    let message: String
}
