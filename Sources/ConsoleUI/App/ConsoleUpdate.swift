import ExperimentCore
import ExperimentResults
import ExperimentStore

/// The pure update: an action and the state in, the new state and the effects to perform out.
public enum ConsoleUpdate {
    public static func update(_ state: inout AppState, _ action: Action) -> [Effect] {
        defer { state.refreshScreenCaches() }
        switch action {
        case .key(let key):
            return handle(key, &state)
        case .changeApplied(let message, let snapshot):
            let closed = state.overlay
            state.snapshot = snapshot
            state.overlay = nil
            state.message = .info(message)
            state.repairAfterReload()
            NewExperimentForm.selectCreated(after: closed, &state)
        case .changeFailed(let message, let isConflict, let snapshot):
            if let snapshot { state.snapshot = snapshot }
            if isConflict { state.overlay = nil }
            state.message = .error(message)
            state.repairAfterReload()
        case .storeReloaded(let snapshot):
            guard snapshot != state.snapshot else { return [] }
            state.snapshot = snapshot
            state.message = .info("the store changed on disk; showing the fresh state")
            state.repairAfterReload()
        case .storeUnreadable(let message):
            state.message = .error(message)
        case .resultsProgress(let id, let rows, let elapsed):
            state.receiveResults(id, .loading(rows: rows, elapsed: elapsed))
        case .resultsLoaded(let id, let analysis):
            state.receiveResults(id, .loaded(ResultsReport(analysis, engine: state.results?.engine ?? .bayesian)))
        case .resultsFailed(let id, let message):
            state.receiveResults(id, .failed(message))
        }
        return []
    }

    private static func handle(_ key: Key, _ state: inout AppState) -> [Effect] {
        if key == .control("c") { return [.quit(130)] }
        if key == .resize { return [] }
        if state.showsHelp {
            if [.escape, .character("q"), .character("?"), .enter].contains(key) { state.showsHelp = false }
            return []
        }
        let context = state.bindingContext
        let intent = KeyBindings.intent(for: key, in: context)
        if intent == .help, !state.isTypingIntoAFilter, !context.takesText || key != .character("?") {
            state.showsHelp = true
            return []
        }
        if let overlay = state.overlay {
            switch overlay {
            case .ramp: return RampEditor.handle(key, intent, &state)
            case .confirm(let confirmation): return handleConfirmation(confirmation, intent, &state)
            case .resolve: return ResolveForm.handle(key, intent, &state)
            case .whitelistAdd: return WhitelistForm.handle(key, intent, &state)
            case .importCSV: return ImportForm.handle(key, intent, &state)
            case .newExperiment: return NewExperimentForm.handle(key, intent, &state)
            }
        }
        switch state.screen {
        case .list: return ListScreen.handle(key, intent, &state)
        case .detail: return handleBrowsing(intent, &state)
        case .whitelist: return WhitelistScreen.handle(key, intent, &state)
        case .history: return HistoryScreen.handle(key, intent, &state)
        case .inspector: return InspectorScreen.handle(key, intent, &state)
        case .results: return ResultsScreen.handle(key, intent, &state)
        }
    }

    /// The action keys shared by the list and the detail screen.
    static func handleBrowsing(_ intent: Intent?, _ state: inout AppState) -> [Effect] {
        guard let intent else { return [] }
        switch intent {
        case .back, .quit:
            state.closeTop()
        case .forceQuit:
            return [.quit(130)]
        case .inspect:
            state.stack.append(.inspector(InspectorScreen()))
        case .history:
            let key = state.screen == .list ? nil : state.focusedExperiment?.key
            state.stack.append(.history(HistoryScreen(experimentKey: key)))
        case .whitelist:
            guard let experiment = state.focusedExperiment else { return [] }
            state.stack.append(.whitelist(WhitelistScreen(experimentKey: experiment.key)))
        case .results:
            guard let experiment = state.focusedExperiment else { return [] }
            state.stack.append(.results(key: experiment.key))
            return state.loadResults(of: experiment.key)
        case .newExperiment:
            guard state.requireWritable("create an experiment") else { return [] }
            state.overlay = .newExperiment(NewExperimentForm())
        case .ramp:
            guard let experiment = state.focusedExperiment, state.requireWritable("ramp"),
                  state.requireNotResolved(experiment, "its weights") else { return [] }
            state.overlay = .ramp(RampEditor(experiment))
        case .resolve:
            guard let experiment = state.focusedExperiment, state.requireWritable("resolve"),
                  state.requireNotResolved(experiment, "its winner") else { return [] }
            state.overlay = .resolve(ResolveForm(experiment))
            // The evidence column shows the results: read the logs unless they are read already.
            return state.loadResults(of: experiment.key)
        case .start, .pause:
            guard let experiment = state.focusedExperiment,
                  state.requireWritable(intent == .start ? "start" : "pause") else { return [] }
            askLifecycle(intent == .start ? .running : .paused, experiment, &state)
        default:
            break
        }
        return []
    }

    private static func askLifecycle(_ target: ExperimentStatus, _ experiment: Experiment, _ state: inout AppState) {
        guard experiment.status.canMove(to: target) else {
            state.message = .error(ExperimentError.forbiddenTransition(experiment: experiment.key, from: experiment.status, to: target).message)
            return
        }
        let confirmation: Confirmation
        if target == .paused {
            confirmation = Confirmation(
                title: "Pause \(experiment.key)?",
                lines: ["Pause is the kill switch: every subject gets `\(experiment.control)` at once,",
                        "whitelisted ones too, until you start it again (s)."],
                change: .pause(experiment: experiment.key), expectedRevision: experiment.revision)
        } else {
            let verb = experiment.status == .paused ? "Resume" : "Start"
            confirmation = Confirmation(
                title: "\(verb) \(experiment.key)?",
                lines: ["Subjects will be bucketed: \(experiment.weightSummary)",
                        "(unallocated \(experiment.unallocated) % get `\(experiment.control)`)."],
                change: .start(experiment: experiment.key), expectedRevision: experiment.revision)
        }
        state.overlay = .confirm(confirmation)
    }

    private static func handleConfirmation(_ confirmation: Confirmation, _ intent: Intent?, _ state: inout AppState) -> [Effect] {
        switch intent {
        case .confirm?:
            return [.apply(confirmation.change, expectedRevision: confirmation.expectedRevision)]
        case .deny?, .cancel?, .back?:
            state.overlay = confirmation.returnTo
            state.message = .info("nothing changed")
        default:
            break
        }
        return []
    }
}
