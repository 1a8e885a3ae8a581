import ExperimentCore
import ExperimentStore

extension AppState {
    /// Brings the derived data of the list (its sorted and filtered rows) and of the top screen (the
    /// whitelist's sorted rows, the inspector's decisions) up to date with the store; costs nothing
    /// when neither the store nor the screen's input changed. `ConsoleUpdate.update` calls it after
    /// every action, so frames never sort or compile.
    mutating func refreshScreenCaches() {
        refreshListRows()
        switch stack.last {
        case .whitelist?: WhitelistScreen.refreshCache(&self)
        case .inspector?: InspectorScreen.refreshCache(&self)
        default: break
        }
    }
}

extension WhitelistScreen {
    /// Rebuilds the rows of the whitelist on top when its experiment or filter changed.
    static func refreshCache(_ app: inout AppState) {
        guard case .whitelist(var screen)? = app.stack.last, let experiment = app.snapshot.experiments[screen.experimentKey],
              !screen.rows.isCurrent(for: experiment, filter: screen.filter) || screen.selectedSubject == nil else { return }
        screen.refresh(experiment)
        app.stack[app.stack.count - 1] = .whitelist(screen)
    }
}
