import ExperimentCore

extension RampEditor {
    /// Handles a key while the editor is open.
    mutating func handle(_ key: Key, _ intent: Intent?, _ context: ScreenContext) -> ScreenReply {
        switch intent {
        case .cancel?, .back?: return .close(saying: .info("ramp cancelled; nothing changed"))
        case .nextField?: moveFocus(by: 1)
        case .previousField?: moveFocus(by: -1)
        case .increment?: step(by: 100)
        case .decrement?: step(by: -100)
        case .submit?: return review(context)
        default: type(key)
        }
        return .none
    }

    /// Enter: a confirmation restating the change when the weights can apply, else the reason in the editor.
    private mutating func review(_ context: ScreenContext) -> ScreenReply {
        problem = nil
        let preview = RampPreview(self, experiment: context.snapshot.experiments[experimentKey])
        guard let plan = preview.plan else {
            // Select the field at fault (the first unreadable one, else the focused one): typing replaces what is shown.
            focus(preview.weights.firstIndex(of: nil) ?? focus)
            problem = "cannot review: see the red check above; nothing was saved"
            return .none
        }
        guard !preview.isUnchanged(self) else {
            focus(focus)
            problem = "the weights are unchanged; edit a field, or Esc to leave"
            return .none
        }
        var returning = self
        returning.focus(focus)
        return .replace(with: .confirm(Confirmation(
            title: "Ramp \(experimentKey)?",
            lines: Self.confirmationLines(self, preview, plan),
            change: .ramp(experiment: experimentKey, weights: preview.named(self)),
            expectedRevision: revision,
            returnTo: .ramp(returning))))
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
