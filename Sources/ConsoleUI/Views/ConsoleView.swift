import ExperimentCore

/// Renders the whole console into a buffer: title bar, the screen, any overlay, status and help bars.
package enum ConsoleView {
    /// The smallest terminal the console draws into.
    package static let minimumWidth = 60
    package static let minimumHeight = 16

    /// The rows between the title bar and the status and help bars.
    static func bodyHeight(terminalHeight: Int) -> Int { max(0, terminalHeight - 3) }

    /// The whole screen; `rows` memoises the derived rows (a fresh cache draws the same, slower).
    package static func render(_ state: AppState, rows: RowCache = RowCache(), width: Int, height: Int) -> ScreenBuffer {
        var buffer = ScreenBuffer(width: max(width, 0), height: max(height, 0))
        guard width >= minimumWidth, height >= minimumHeight else {
            let text = "terminal too small (need \(minimumWidth)×\(minimumHeight))"
            buffer.write(text, x: max(0, (width - DisplayWidth.of(text)) / 2), y: height / 2, maxWidth: width)
            return buffer
        }
        let full = Rect(x: 0, y: 0, width: width, height: height)
        renderTitle(state, width: width, into: &buffer)
        let body = full.inset(top: 1, bottom: 2)
        switch state.screen {
        case .list: ListView.render(state, rows: rows, into: &buffer, area: body)
        case .detail(let key): DetailView.render(state, key: key, into: &buffer, area: body)
        case .whitelist(let screen): WhitelistScreen.render(screen, state, rows: rows, into: &buffer, area: body)
        case .history(let screen): HistoryScreen.render(screen, state, into: &buffer, area: body)
        case .inspector(let screen): InspectorScreen.render(screen, state, rows: rows, into: &buffer, area: body)
        case .results(let key): ResultsScreen.render(key: key, state, into: &buffer, area: body)
        }
        if let overlay = state.overlay { renderOverlay(overlay, state, into: &buffer, area: body) }
        if state.showsHelp { HelpOverlay.render(state, into: &buffer) }
        renderStatus(state, y: height - 2, width: width, into: &buffer)
        renderHelpBar(state, y: height - 1, width: width, into: &buffer)
        return buffer
    }

    private static func renderOverlay(_ overlay: Overlay, _ state: AppState, into buffer: inout ScreenBuffer, area: Rect) {
        switch overlay {
        case .ramp(let value): RampEditor.render(value, state, into: &buffer, area: area)
        case .confirm(let value): ConfirmView.render(value, into: &buffer, area: area)
        case .resolve(let value): ResolveForm.render(value, state, into: &buffer, area: area)
        case .whitelistAdd(let value): WhitelistForm.render(value, state, into: &buffer, area: area)
        case .importCSV(let value): ImportForm.render(value, state, into: &buffer, area: area)
        case .newExperiment(let value): NewExperimentForm.render(value, state, into: &buffer, area: area)
        case .variant(let value): VariantForm.render(value, state, into: &buffer, area: area)
        case .textEdit(let value): TextEditForm.render(value, state, into: &buffer, area: area)
        case .plan(let value): PlanForm.render(value, state, into: &buffer, area: area)
        case .conflicts(let value): ConflictsForm.render(value, state, into: &buffer, area: area)
        case .metrics(let value): MetricsForm.render(value, state, into: &buffer, area: area)
        }
    }

    private static func renderTitle(_ state: AppState, width: Int, into buffer: inout ScreenBuffer) {
        buffer.fill(Rect(x: 0, y: 0, width: width, height: 1), style: Palette.title)
        let where_ = switch state.screen {
        case .list: "experiments"
        case .detail(let key): key
        case .whitelist(let screen): "\(screen.experimentKey) › whitelist"
        case .history(let screen): screen.experimentKey.map { "\($0) › history" } ?? "history"
        case .inspector: "inspector"
        case .results(let key): "\(key) › results"
        }
        let right = (state.git.map { SafeText.escaped($0.text) + " · " } ?? "") + "\(state.snapshot.experiments.count) experiments · rev \(state.snapshot.revision)" + (state.readOnly ? " · READ-ONLY" : "")
        var rightWidth = DisplayWidth.of(right)
        // Until a good read: the title says the store on disk is not what the screen shows, or why git's conflict has nothing to pick.
        if let trouble = state.storeTrouble?.text ?? state.gitTrouble {
            let text = DisplayWidth.truncate(" " + SafeText.escaped(trouble) + " ", toWidth: max(0, width / 2 - 2))
            rightWidth += DisplayWidth.of(text) + 1
            buffer.write(text, x: max(0, width - rightWidth - 1), y: 0, style: Palette.banner)
        }
        buffer.write(" abconsole › \(SafeText.escaped(where_))", x: 0, y: 0, maxWidth: width - rightWidth - 2, style: Palette.title)
        buffer.write(right + " ", x: max(0, width - DisplayWidth.of(right) - 1), y: 0, style: Palette.title)
    }

    private static func renderStatus(_ state: AppState, y: Int, width: Int, into buffer: inout ScreenBuffer) {
        let context = "\(state.storePath) · \(state.operatorName)"
        if let job = state.jobs.last {
            // A message set while the job runs (a refusal, say) comes first; the job's progress follows.
            var x = 1
            if let message = state.message {
                x += buffer.write(SafeText.escaped(message.text) + " · ", x: x, y: y, maxWidth: width - 2,
                                  style: message.isError ? Palette.error : Palette.info)
            }
            buffer.write(SafeText.escaped(JobStatusText.text(job)), x: x, y: y, maxWidth: max(0, width - 1 - x), style: Palette.key)
        } else if let message = state.message {
            let text = SafeText.escaped(message.text), style = message.isError ? Palette.error : Palette.info
            guard DisplayWidth.of(text) > width - 2, state.bindingContext.allowsGlobalKeys else {
                let used = buffer.write(text, x: 1, y: y, maxWidth: width - 2, style: style)
                let room = width - used - 4
                if room > 10 { buffer.write(SafeText.escaped(context), x: width - min(room, DisplayWidth.of(context)) - 1, y: y, maxWidth: room, style: Palette.dim) }
                return
            }
            // Too long for the line: cut, with the key that shows it whole.
            let key = KeyBindings.all.first { $0.intent == .messageLog }?.label ?? "?"
            let hint = " \(key): whole message"
            let used = buffer.write(text, x: 1, y: y, maxWidth: width - 2 - DisplayWidth.of(hint), style: style)
            buffer.write(hint, x: 1 + used, y: y, style: Palette.key)
        } else {
            buffer.write(SafeText.escaped(context), x: 1, y: y, maxWidth: width - 2, style: Palette.dim)
        }
    }

    private static func renderHelpBar(_ state: AppState, y: Int, width: Int, into buffer: inout ScreenBuffer) {
        let context = state.bindingContext, facts = AvailabilityFacts(state)
        let jobs = state.jobs.isEmpty || state.overlay != nil || state.showsHelp ? [] : KeyBindings.helpBar(for: .job, facts)
        var x = 1
        for binding in fitted(jobs + KeyBindings.helpBar(for: context, facts), width: width) {
            let text = binding.barText ?? binding.help
            guard x + DisplayWidth.of(binding.label) + 1 + DisplayWidth.of(text) < width else { break }
            x += buffer.write(binding.label, x: x, y: y, style: Palette.key)
            x += buffer.write(" " + text, x: x, y: y, style: Palette.dim)
            x += 2
        }
    }

    /// The bar's bindings that fit in `width`: when they do not all fit, the last ones go first, but
    /// never the ways out and the help (Esc, q, ?), which every screen must keep showing.
    static func fitted(_ bindings: [KeyBinding], width: Int) -> [KeyBinding] {
        let kept: Set<Intent> = [.back, .cancel, .quit, .help, .deny, .giveUp]
        var bindings = bindings
        func used() -> Int { bindings.reduce(1) { $0 + DisplayWidth.of($1.label) + 1 + DisplayWidth.of($1.barText ?? $1.help) + 2 } }
        while used() > width + 1, let last = bindings.lastIndex(where: { !kept.contains($0.intent) }) {
            bindings.remove(at: last)
        }
        return bindings
    }
}
