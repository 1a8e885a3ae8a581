/// A full screen: the experiment list at the root, or one opened above it; each case carries what is its own.
package enum Screen: Equatable, Sendable {
    /// The root, always under the stack: its filter and selection are `AppState.list`, which outlive the screens above.
    case list
    case detail(key: String)
    case whitelist(WhitelistScreen)
    case history(HistoryScreen)
    case inspector(InspectorScreen)
    /// The results of an experiment: it carries the key, as `detail` does; the read it shows is `AppState.results`,
    /// the console's one read of the logs, which the resolve form's evidence and `e` again share.
    case results(key: String)

    /// The experiment this screen is about, if any.
    package var experimentKey: String? {
        switch self {
        case .list, .inspector: nil
        case .detail(let key), .results(let key): key
        case .whitelist(let screen): screen.experimentKey
        case .history(let screen): screen.experimentKey
        }
    }

    /// Which bindings apply on this screen.
    package var bindingContext: BindingContext {
        switch self {
        case .list: .list
        case .detail: .detail
        case .whitelist: .whitelist
        case .history: .history
        case .inspector(let screen): screen.bindingContext
        case .results: .results
        }
    }
}

/// A form or confirmation drawn over the screen (indirect: a confirmation can hold the form it returns to).
package indirect enum Overlay: Equatable, Sendable {
    case ramp(RampEditor)
    case confirm(Confirmation)
    case resolve(ResolveForm)
    case whitelistAdd(WhitelistForm)
    case importCSV(ImportForm)
    case newExperiment(NewExperimentForm)
    /// Add a variant, or set a variant's payload.
    case variant(VariantForm)
    /// Edit the description or a whitelist note.
    case textEdit(TextEditForm)
    /// The conflicts git left in the store: a side per conflict.
    case conflicts(ConflictsForm)
    /// Name the goal and guardrail metrics.
    case metrics(MetricsForm)
    /// Set, pause, resume or clear a ramp plan.
    case plan(PlanForm)
}
