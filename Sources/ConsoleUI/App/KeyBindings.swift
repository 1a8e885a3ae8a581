/// The one keybinding table: it drives dispatch, the help bar, the `?` overlay and docs/keymap.md.
///
/// Whether a binding's action applies now is its intent's `Intent.availability` (Availability.swift):
/// dispatch refuses an unavailable key with the reason, the bar hides it, the `?` overlay dims it.
package enum KeyBindings {
    package static let all: [KeyBinding] = [
        KeyBinding([.character("?")], .global, .help, "help: every key", bar: "help"),
        KeyBinding([.control("c")], .global, .forceQuit, "quit from anywhere (exit 130)"),
        KeyBinding([.character("i")], .global, .inspect, "inspect a subject", bar: "inspect"),
        KeyBinding([.character("L")], .global, .messageLog, "message log: the last \(AppState.messageLogLimit) messages, whole"),

        KeyBinding([.character("j"), .down], .list, .moveDown, "next experiment"),
        KeyBinding([.character("k"), .up], .list, .moveUp, "previous experiment"),
        KeyBinding([.character("g"), .home], .list, .top, "first experiment"),
        KeyBinding([.character("G"), .end], .list, .bottom, "last experiment"),
        KeyBinding([.pageDown], .list, .pageDown, "page down"),
        KeyBinding([.pageUp], .list, .pageUp, "page up"),
        KeyBinding([.enter], .list, .open, "open the experiment", bar: "open"),
        KeyBinding([.character("/")], .list, .filter, "filter by key, status, type or description", bar: "filter"),
        KeyBinding([.character("n")], .list, .newExperiment, "new experiment (draft)", bar: "new"),
        KeyBinding([.character("r")], .list, .ramp, "ramp the selected experiment", bar: "ramp"),
        KeyBinding([.character("w")], .list, .whitelist, "whitelist of the selected experiment", bar: "whitelist"),
        KeyBinding([.character("e")], .list, .results, "results of the selected experiment (evidence)", bar: "results"),
        KeyBinding([.character("R")], .list, .resolve, "resolve the selected experiment"),
        KeyBinding([.character("s")], .list, .start, "start or resume the selected experiment"),
        KeyBinding([.character("p")], .list, .pause, "pause the selected experiment (kill switch)"),
        KeyBinding([.character("A")], .list, .rampPlan, "ramp plan of the selected experiment: set, pause, resume or clear"),
        KeyBinding([.character("H")], .list, .history, "history of every experiment"),
        KeyBinding([.escape], .list, .back, "clear the filter"),
        KeyBinding([.character("q")], .list, .quit, "quit", bar: "quit"),

        KeyBinding([.enter], .filter, .submit, "keep the filter", bar: "keep"),
        KeyBinding([.escape], .filter, .cancel, "clear the filter", bar: "clear"),
        KeyBinding([.down], .filter, .moveDown, "next match"),
        KeyBinding([.up], .filter, .moveUp, "previous match"),

        KeyBinding([.character("r")], .detail, .ramp, "ramp", bar: "ramp"),
        KeyBinding([.character("w")], .detail, .whitelist, "whitelist", bar: "whitelist"),
        KeyBinding([.character("e")], .detail, .results, "results (evidence)", bar: "results"),
        KeyBinding([.character("R")], .detail, .resolve, "resolve", bar: "resolve"),
        KeyBinding([.character("s")], .detail, .start, "start or resume", bar: "start"),
        KeyBinding([.character("p")], .detail, .pause, "pause (kill switch)", bar: "pause"),
        KeyBinding([.character("H")], .detail, .history, "history of this experiment", bar: "history"),
        KeyBinding([.character("v")], .detail, .addVariant, "add a variant (at 0 %, with an optional JSON payload)"),
        KeyBinding([.character("P")], .detail, .setPayload, "set or clear a variant's JSON payload"),
        KeyBinding([.character("E")], .detail, .editDescription, "edit the description"),
        KeyBinding([.character("M")], .detail, .setMetrics, "name the goal and guardrail metrics results judge the variants by"),
        KeyBinding([.character("A")], .detail, .rampPlan, "ramp plan: set, pause, resume or clear (`advance` carries it out)"),
        KeyBinding([.character("D")], .detail, .deleteDraft, "delete this experiment (drafts only; asks first)"),
        KeyBinding([.escape, .character("q")], .detail, .back, "back to the list", bar: "back"),

        KeyBinding([.tab], .results, .nextMetric, "next metric", bar: "metric"),
        KeyBinding([.character("b")], .results, .bayesian, "Bayesian engine (chance to win)", bar: "bayesian"),
        KeyBinding([.character("f")], .results, .frequentist, "frequentist engine (p-value)", bar: "frequentist"),
        KeyBinding([.enter], .results, .reload, "read the logs again", bar: "reload"),
        KeyBinding([.character("R")], .results, .resolve, "resolve, with these results as evidence", bar: "resolve"),
        KeyBinding([.escape], .results, .cancel, "cancel the loading, else back", bar: "cancel/back"),
        KeyBinding([.character("q")], .results, .back, "back"),

        KeyBinding([.character("j"), .down], .whitelist, .moveDown, "next entry"),
        KeyBinding([.character("k"), .up], .whitelist, .moveUp, "previous entry"),
        KeyBinding([.character("g"), .home], .whitelist, .top, "first entry"),
        KeyBinding([.character("G"), .end], .whitelist, .bottom, "last entry"),
        KeyBinding([.pageDown], .whitelist, .pageDown, "page down"),
        KeyBinding([.pageUp], .whitelist, .pageUp, "page up"),
        KeyBinding([.character("/")], .whitelist, .filter, "filter entries", bar: "filter"),
        KeyBinding([.character("a")], .whitelist, .whitelistAdd, "add a subject", bar: "add"),
        KeyBinding([.character("d")], .whitelist, .whitelistRemove, "remove the selected subject", bar: "remove"),
        KeyBinding([.character("I")], .whitelist, .whitelistImport, "import a CSV file", bar: "import"),
        KeyBinding([.character("i")], .whitelist, .inspect, "inspect the selected subject (its id filled in)"),
        KeyBinding([.character("N")], .whitelist, .whitelistEditNote, "edit the note of the selected subject"),
        KeyBinding([.escape, .character("q")], .whitelist, .back, "back (Esc first clears a kept filter)", bar: "back"),

        KeyBinding([.character("j"), .down], .history, .moveDown, "older entry"),
        KeyBinding([.character("k"), .up], .history, .moveUp, "newer entry"),
        KeyBinding([.character("g"), .home], .history, .top, "newest"),
        KeyBinding([.character("G"), .end], .history, .bottom, "oldest"),
        KeyBinding([.pageDown], .history, .pageDown, "page down"),
        KeyBinding([.pageUp], .history, .pageUp, "page up"),
        KeyBinding([.character("a")], .history, .historyToggleScope, "all experiments / the experiment of the selected change", bar: "all/this"),
        KeyBinding([.character("/")], .history, .filter, "filter by experiment, operator, action or change", bar: "filter"),
        KeyBinding([.escape, .character("q")], .history, .back, "back (Esc first clears a kept filter)", bar: "back"),

        KeyBinding([.tab], .inspector, .nextField, "next: user id, device id, the table", bar: "next field"),
        KeyBinding([.backTab], .inspector, .previousField, "previous: device id, user id, the table"),
        KeyBinding([.enter], .inspector, .submit, "run the inspection (the table then takes the keys)", bar: "inspect"),
        KeyBinding([.down], .inspector, .moveDown, "next experiment in the table"),
        KeyBinding([.up], .inspector, .moveUp, "previous experiment in the table"),
        KeyBinding([.pageDown], .inspector, .pageDown, "page down the table"),
        KeyBinding([.pageUp], .inspector, .pageUp, "page up the table"),
        KeyBinding([.escape], .inspector, .back, "back (the ids stay for the next `i`)", bar: "back"),

        KeyBinding([.character("j"), .down], .inspectorTable, .moveDown, "next experiment"),
        KeyBinding([.character("k"), .up], .inspectorTable, .moveUp, "previous experiment"),
        KeyBinding([.character("g"), .home], .inspectorTable, .top, "first experiment"),
        KeyBinding([.character("G"), .end], .inspectorTable, .bottom, "last experiment"),
        KeyBinding([.pageDown], .inspectorTable, .pageDown, "page down"),
        KeyBinding([.pageUp], .inspectorTable, .pageUp, "page up"),
        KeyBinding([.enter], .inspectorTable, .open, "open the selected experiment", bar: "open"),
        KeyBinding([.tab], .inspectorTable, .nextField, "back to the user id field", bar: "edit ids"),
        KeyBinding([.backTab], .inspectorTable, .previousField, "back to the device id field"),
        KeyBinding([.character("i")], .inspectorTable, .inspect, "edit the ids"),
        KeyBinding([.escape, .character("q")], .inspectorTable, .back, "back (the ids stay for the next `i`)", bar: "back"),

        KeyBinding([.tab, .down], .rampEditor, .nextField, "next variant", bar: "next"),
        KeyBinding([.backTab, .up], .rampEditor, .previousField, "previous variant"),
        KeyBinding([.character("+")], .rampEditor, .increment, "+1 %", bar: "+1 %"),
        KeyBinding([.character("-")], .rampEditor, .decrement, "−1 %", bar: "−1 %"),
        KeyBinding([.left, .right, .home, .end, .delete], .rampEditor, .editText,
                   "move or delete in the focused weight (a field is all selected when focused: typing replaces it)"),
        KeyBinding([.enter], .rampEditor, .submit, "review and confirm", bar: "review"),
        KeyBinding([.escape], .rampEditor, .cancel, "cancel", bar: "cancel"),
        KeyBinding([.character("?")], .rampEditor, .help, "help: every key"),

        KeyBinding([.tab], .form, .nextField, "next field", bar: "next field"),
        KeyBinding([.backTab], .form, .previousField, "previous field"),
        KeyBinding([.right], .form, .cycleNext, "move right in the text, or the next choice"),
        KeyBinding([.left], .form, .cyclePrevious, "move left in the text, or the previous choice"),
        KeyBinding([.home, .end, .delete, .control("a"), .control("e"), .control("u")], .form, .editText,
                   "in a text field: Home or Ctrl-A to the start, End or Ctrl-E to the end, Del deletes at the cursor, Ctrl-U clears"),
        KeyBinding([.enter], .form, .submit, "save", bar: "save"),
        KeyBinding([.escape], .form, .cancel, "cancel", bar: "cancel"),

        KeyBinding([.character("y")], .confirm, .confirm, "yes: apply (if the store changed meanwhile: ask again on it)", bar: "yes"),
        KeyBinding([.character("n"), .escape], .confirm, .deny, "no, go back", bar: "back"),

        KeyBinding([.escape], .job, .giveUp, "give up a save waiting for a lock, or a log read", bar: "give up"),

        KeyBinding([.character("j"), .down], .help, .moveDown, "scroll down", bar: "scroll"),
        KeyBinding([.character("k"), .up], .help, .moveUp, "scroll up"),
        KeyBinding([.pageDown], .help, .pageDown, "page down"),
        KeyBinding([.pageUp], .help, .pageUp, "page up"),
        KeyBinding([.character("g"), .home], .help, .top, "top"),
        KeyBinding([.character("G"), .end], .help, .bottom, "bottom"),
        KeyBinding([.character("/")], .help, .filter, "search (Enter keeps the search, Esc clears it)", bar: "search"),
        KeyBinding([.character("n")], .help, .nextMatch, "next match", bar: "next"),
        KeyBinding([.character("N")], .help, .previousMatch, "previous match"),
        KeyBinding([.escape, .character("q"), .character("?")], .help, .back, "close", bar: "close"),
    ]

    /// The intent of `key` in `context`, if any.
    ///
    /// Browsing contexts fall back to every global binding; the others (text fields, confirmations,
    /// the help overlay) only to those without a character key (Ctrl-C), exactly the ones
    /// `globals(in:)` lists, so typing `i` or `?` into a field types it (the ramp editor binds `?`
    /// itself: its fields take digits).
    package static func intent(for key: Key, in context: BindingContext) -> Intent? {
        if let binding = all.first(where: { $0.context == context && $0.keys.contains(key) }) { return binding.intent }
        return globals(in: context).first { $0.keys.contains(key) }?.intent
    }

    /// The global bindings that work in `context`: all of them while browsing, only non-character keys (Ctrl-C) elsewhere.
    package static func globals(in context: BindingContext) -> [KeyBinding] {
        all.filter { binding in
            guard binding.context == .global else { return false }
            if context.allowsGlobalKeys { return true }
            return !binding.keys.contains { if case .character = $0 { true } else { false } }
        }
    }

    /// The bindings the bottom help bar shows in `context`: those with bar text whose action applies given `facts`.
    package static func helpBar(for context: BindingContext, _ facts: AvailabilityFacts) -> [KeyBinding] {
        (all.filter { $0.context == context } + globals(in: context)).filter { $0.barText != nil && $0.availability(facts).isAvailable }
    }

    /// The keymap as a Markdown table, grouped by context (docs/keymap.md carries exactly this).
    package static func markdownTable() -> String {
        var lines = ["| Where | Key | Does |", "|---|---|---|"]
        for context in BindingContext.allCases {
            for binding in all where binding.context == context {
                lines.append("| \(context.title) | `\(binding.label)` | \(binding.help) |")
            }
        }
        return lines.joined(separator: "\n")
    }
}
