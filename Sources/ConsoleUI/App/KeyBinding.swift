/// Where a binding applies: the browsing screens, a form, or everywhere.
package enum BindingContext: String, Hashable, Sendable, CaseIterable {
    case global, list, filter, detail, results, whitelist, history, inspector, inspectorTable, form, rampEditor, confirm, job, help

    /// Whether the global bindings (`?`, `i`) work here; text fields and confirmations keep their keys.
    package var allowsGlobalKeys: Bool { !takesText && ![.confirm, .job, .help].contains(self) }

    /// Whether keys in this context are typed into a text field when no binding claims them.
    package var takesText: Bool { [.form, .rampEditor, .inspector, .filter].contains(self) }

    /// The heading of this context in the help overlay and docs/keymap.md.
    package var title: String {
        switch self {
        case .global: "Everywhere"
        case .list: "Experiment list"
        case .filter: "Typing a filter"
        case .detail: "Experiment detail"
        case .results: "Results"
        case .whitelist: "Whitelist"
        case .history: "History"
        case .inspector: "Subject inspector"
        case .inspectorTable: "Inspector table"
        case .form: "Forms"
        case .rampEditor: "Ramp editor"
        case .confirm: "Confirmations"
        case .job: "While a job runs"
        case .help: "Help and message log"
        }
    }
}

/// One row of the keybinding table: the keys, where they apply, what they mean, and their help.
package struct KeyBinding: Hashable, Sendable {
    package let keys: [Key]
    /// How the keys are written in help, e.g. `j/↓`: derived from the keys, so it cannot name another.
    package var label: String { keys.map(\.label).joined(separator: "/") }
    package let context: BindingContext
    package let intent: Intent
    package let help: String
    /// The short text the bottom help bar shows, or nil to leave it to the `?` overlay.
    package let barText: String?

    package init(_ keys: [Key], _ context: BindingContext, _ intent: Intent, _ help: String, bar: String? = nil) {
        self.keys = keys
        self.context = context
        self.intent = intent
        self.help = help
        self.barText = bar
    }
}
