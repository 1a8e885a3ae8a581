import ExperimentCore
import ExperimentStore

extension RampEditor {
    /// Handles a key while the editor is open; returns the effects to perform.
    static func handle(_ key: Key, _ intent: Intent?, _ app: inout AppState) -> [Effect] {
        guard case .ramp(var editor)? = app.overlay else { return [] }
        switch intent {
        case .cancel?, .back?:
            app.overlay = nil
            app.message = .info("ramp cancelled; nothing changed")
            return []
        case .nextField?: editor.moveFocus(by: 1)
        case .previousField?: editor.moveFocus(by: -1)
        case .increment?: editor.step(by: 100)
        case .decrement?: editor.step(by: -100)
        case .submit?: return review(editor, &app)
        default:
            if key == .character("?") {
                app.showsHelp = true
                return []
            }
            editor.type(key)
        }
        app.overlay = .ramp(editor)
        return []
    }

    /// Enter: a confirmation restating the change when the weights can apply, else the reason in the editor.
    private static func review(_ editor: RampEditor, _ app: inout AppState) -> [Effect] {
        var editor = editor
        editor.problem = nil
        let preview = RampPreview(editor, experiment: app.snapshot.experiments[editor.experimentKey])
        guard let plan = preview.plan else {
            editor.problem = "cannot review: see the red check above; nothing was saved"
            app.overlay = .ramp(editor)
            return []
        }
        guard !preview.isUnchanged(editor) else {
            editor.problem = "the weights are unchanged; edit a field, or Esc to leave"
            app.overlay = .ramp(editor)
            return []
        }
        app.overlay = .confirm(Confirmation(
            title: "Ramp \(editor.experimentKey)?",
            lines: confirmationLines(editor, preview, plan),
            change: .ramp(experiment: editor.experimentKey, weights: preview.named(editor)),
            expectedRevision: editor.revision,
            returnTo: .ramp(editor)))
        return []
    }

    /// `control  50 % → 70 %` per variant, the unallocated share when it matters, and who moves.
    static func confirmationLines(_ editor: RampEditor, _ preview: RampPreview, _ plan: RampPlan) -> [String] {
        let oldPool = Weight(buckets: Weight.bucketCount - editor.before.reduce(0) { $0 + $1.buckets })
        let newPool = preview.unallocated ?? .zero
        var rows = zip(editor.variants, zip(editor.before, preview.weights)).map { name, pair in
            (name, "\(pair.0) %", "\(pair.1 ?? .zero) %")
        }
        if oldPool.buckets > 0 || newPool.buckets > 0 { rows.append(("(unallocated)", "\(oldPool) %", "\(newPool) %")) }
        let nameWidth = rows.map { DisplayWidth.of($0.0) }.max() ?? 0
        let oldWidth = rows.map { DisplayWidth.of($0.1) }.max() ?? 0
        var lines = rows.map { name, old, new in
            DisplayWidth.pad(name, toWidth: nameWidth) + "  " + String(repeating: " ", count: oldWidth - DisplayWidth.of(old)) + old + " → " + new
        }
        lines += ["", RampPreview.movedText(plan) + "."]
        return lines
    }
}
