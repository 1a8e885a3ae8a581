import ExperimentCore
import ExperimentEditing
import ExperimentResults
import Foundation

/// The pure update: an action and the state in, the new state and the effects to perform out.
///
/// `rows` memoises the rows derived from the state (see `RowCache`); a fresh cache gives the same
/// result. Keys are dispatched through `KeyBindings` to the top form or screen, which changes its
/// own value against a read-only `ScreenContext` and answers with a `ScreenReply` for the rest.
/// `now` is when the action happened (the runtime passes its clock); it only stamps the message log.
package enum ConsoleUpdate {
    package static func update(_ state: inout AppState, _ action: Action, now: Date,
                              rows: RowCache = RowCache()) -> [Effect] {
        var effects: [Effect] = []
        if case .key(let key) = action, clearsMessage(key, state) { state.message = nil }
        let messageBefore = state.message
        let filterBefore = state.topWhitelistFilter
        var storeChanged = false
        switch action {
        case .key(let key):
            effects = handle(key, &state, rows)
        case .resized(let width, let height):
            state.size = TerminalSize(width: width, height: height)
        case .jobProgress(let id, let progress):
            state.recordProgress(progress, of: id)
        case .jobFinished(let id, let outcome):
            state.finishJob(id, outcome, rows: rows)
            storeChanged = true
        case .storeReloaded(let snapshot):
            state.storeTrouble = nil
            guard snapshot != state.snapshot else { return [] }
            state.snapshot = snapshot
            state.message = .info("the store changed on disk; showing the fresh state")
            state.repairAfterReload(rows)
            storeChanged = true
        case .storeUnreadable(let message, let trouble):
            state.storeTrouble = trouble
            state.message = .error(message)
        case .gitRead(let status, let conflicts, let trouble):
            state.git = status
            if trouble != state.gitTrouble {
                state.gitTrouble = trouble
                if let trouble { state.message = .error(trouble) }
            }
            if case .conflicts(let form)? = state.overlay, form.conflicts != conflicts {
                // The file changed under the open screen: it shows the conflicts still open now (or closes).
                state.overlay = conflicts.isEmpty ? nil : .conflicts(ConflictsForm(conflicts))
            }
            guard conflicts != state.gitConflicts else { break }
            state.gitConflicts = conflicts
            guard !conflicts.isEmpty else { break }
            let count = conflicts.count == 1 ? "1 conflict" : "\(conflicts.count) conflicts"
            if state.readOnly {
                state.message = .error("git left the store conflicted (\(count)); settle it without --read-only, or with `abconsole merge`")
            } else {
                state.message = .error("git left the store conflicted (\(count)): pick a side for each, Enter writes and stages the store")
                if state.overlay == nil { state.overlay = .conflicts(ConflictsForm(conflicts)) }
            }
        }
        state.keepSelectionOnARow(rows, always: storeChanged || state.topWhitelistFilter != filterBefore)
        if let message = state.message, message != messageBefore { state.log(message, at: now) }
        return effects
    }

    /// Whether `key` does something here, so the status message it leaves behind is cleared first.
    private static func clearsMessage(_ key: Key, _ state: AppState) -> Bool {
        let context = state.bindingContext
        return context.takesText || KeyBindings.intent(for: key, in: context) != nil
    }

    private static func handle(_ key: Key, _ state: inout AppState, _ rows: RowCache) -> [Effect] {
        let context = state.bindingContext
        let intent = KeyBindings.intent(for: key, in: context)
        if intent == .forceQuit { return [.quit(130)] }
        if state.showsHelp {
            let lines = HelpOverlay.lines(state)
            if state.help.handle(key, intent, lines: lines, visible: HelpOverlay.visibleRows(state, lineCount: lines.count)) { state.showsHelp = false }
            return []
        }
        if intent == .help || intent == .messageLog {
            state.help = HelpState(page: intent == .help ? .keys : .messages)
            state.showsHelp = true
            return []
        }
        if !state.jobs.isEmpty, state.overlay == nil, context != .filter, KeyBindings.intent(for: key, in: .job) == .giveUp {
            return state.giveUpJob()
        }
        // An action that cannot apply says why at once, before any form opens (the key bar hides it already).
        if let reason = intent?.availability(AvailabilityFacts(state)).reason {
            state.message = .error(reason)
            return []
        }
        let screenContext = ScreenContext(state, rows: rows)
        if let overlay = state.overlay {
            var form = overlay
            let reply = form.handle(key, intent, screenContext)
            state.overlay = form
            return apply(reply, from: .form, &state, rows)
        }
        let reply = state.handleOnScreen(key, intent, screenContext)
        return apply(reply, from: .screen, &state, rows)
    }

    /// Who answered a key.
    private enum Responder { case form, screen }

    /// Carries out what the form or screen asked: closes it if the step says so, sets the status bar, takes the step.
    private static func apply(_ reply: ScreenReply, from responder: Responder, _ state: inout AppState, _ rows: RowCache) -> [Effect] {
        if reply.next.closesAnswerer {
            switch responder {
            case .form: state.overlay = nil
            case .screen: state.closeTop(rows)
            }
        }
        switch reply.status {
        case .keep: break
        case .clear: state.message = nil
        case .show(let message): state.message = message
        }
        switch reply.next {
        case .stay, .close:
            return []
        case .present(let overlay, _, let reading):
            state.overlay = overlay
            return reading.map { state.startJob($0) } ?? []
        case .push(let screen, let reading):
            state.stack.append(screen)
            return reading.map { state.startJob($0) } ?? []
        case .start(let work, _, let subject):
            if let subject, case .whitelist(var screen)? = state.stack.last {
                screen.selectedSubject = subject
                state.stack[state.stack.count - 1] = .whitelist(screen)
            }
            return state.startJob(work)
        case .giveUp(let job, _):
            return state.giveUpJob(job)
        case .browse(let intent):
            return apply(browsing(intent, state), from: responder, &state, rows)
        case .quit(let code):
            return [.quit(code)]
        }
    }

    /// The action keys shared by the browsing screens: open a screen or a form about the focused
    /// experiment (never `.browse` again, so `apply` takes it in one step).
    ///
    /// Dispatch has checked `Intent.availability` already: a form opens only when its action applies.
    static func browsing(_ intent: Intent, _ state: AppState) -> ScreenReply {
        switch intent {
        case .inspect:
            return .push(.inspector(state.lastInspector))
        case .history:
            return .push(.history(HistoryScreen(experimentKey: state.screen == .list ? nil : state.focusedExperiment?.key)))
        case .whitelist:
            return state.focusedExperiment.map { .push(.whitelist(WhitelistScreen(experimentKey: $0.key))) } ?? .none
        case .results:
            guard let experiment = state.focusedExperiment else { return .none }
            let read = ResultsState.needsReading(state.results, of: experiment.key) ? Work.readResults(experiment: experiment.key) : nil
            return .push(.results(key: experiment.key), reading: read)
        case .newExperiment:
            return .present(.newExperiment(NewExperimentForm()))
        case .ramp:
            guard let experiment = state.focusedExperiment else { return .none }
            return .present(.ramp(RampEditor(experiment)))
        case .resolve:
            guard let experiment = state.focusedExperiment else { return .none }
            // The evidence column shows the results: read the logs unless they are read already.
            var form = ResolveForm(experiment)
            form.preselectLeader(of: state.results)
            let read = ResultsState.needsReading(state.results, of: experiment.key) ? Work.readResults(experiment: experiment.key) : nil
            return .present(.resolve(form), reading: read)
        case .setMetrics:
            guard let experiment = state.focusedExperiment else { return .none }
            // The form offers the metric names the logs hold: read them unless they are read already.
            let read = ResultsState.needsReading(state.results, of: experiment.key) ? Work.readResults(experiment: experiment.key) : nil
            return .present(.metrics(MetricsForm(experiment)), status: .clear, reading: read)
        case .rampPlan:
            return state.focusedExperiment.map { .present(.plan(PlanForm($0)), status: .clear) } ?? .none
        case .addVariant, .setPayload, .editDescription, .deleteDraft:
            guard let experiment = state.focusedExperiment else { return .none }
            return ExperimentEdits.ask(intent, experiment)
        case .start, .pause:
            guard let experiment = state.focusedExperiment else { return .none }
            return LifecycleQuestion.ask(intent == .start ? .running : .paused, experiment)
        default:
            return .none
        }
    }
}
