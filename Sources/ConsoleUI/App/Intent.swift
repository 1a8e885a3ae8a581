/// What the user means by a key, whatever key they used (the keybinding table maps keys to these).
package enum Intent: String, Hashable, Sendable, CaseIterable {
    // Moving around
    case moveUp, moveDown, top, bottom, pageUp, pageDown, open, back, quit, forceQuit, help, messageLog
    // Acting on the open or selected experiment
    case filter, ramp, whitelist, resolve, start, pause, inspect, history, newExperiment, results
    case deleteDraft, addVariant, setPayload, editDescription, setMetrics, rampPlan
    // Inside screens
    case whitelistAdd, whitelistRemove, whitelistImport, whitelistEditNote, historyToggleScope, nextMetric, bayesian, frequentist, reload
    // Inside forms and confirmations
    case nextField, previousField, increment, decrement, cycleNext, cyclePrevious, submit, cancel, confirm, deny
    // Searching the help overlay
    case nextMatch, previousMatch
    /// A key that edits the focused text field (Home, End, Delete…), listed in help; the field handles it.
    case editText
    // While a job runs
    case giveUp
}
