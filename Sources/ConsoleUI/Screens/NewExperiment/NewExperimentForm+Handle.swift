import ExperimentCore
import ExperimentStore

extension NewExperimentForm {
    /// Handles a key while the form is open; returns the effects to perform.
    static func handle(_ key: Key, _ intent: Intent?, _ app: inout AppState) -> [Effect] {
        guard case .newExperiment(var form)? = app.overlay else { return [] }
        form.problem = nil
        switch intent {
        case .cancel?, .back?:
            app.overlay = nil
            app.message = .info("no experiment created")
            return []
        case .nextField?: form.moveFocus(by: 1)
        case .previousField?: form.moveFocus(by: -1)
        case .cycleNext?: form.cycleType(by: 1)
        case .cyclePrevious?: form.cycleType(by: -1)
        case .submit?:
            guard app.requireWritable("create an experiment") else { return [] }
            switch form.draft(existing: app.snapshot.experiments) {
            case .success(let draft):
                app.overlay = .newExperiment(form)
                return [.apply(.create(draft), expectedRevision: nil)]
            case .failure(let problem):
                form.problem = problem.message
                form.focus = problem.field
            }
        default:
            form.type(key)
        }
        app.overlay = .newExperiment(form)
        return []
    }

    /// After a create succeeded: select the new experiment in the list (clearing a filter that hides it).
    static func selectCreated(after closed: Overlay?, _ app: inout AppState) {
        guard case .newExperiment(let form)? = closed else { return }
        let key = form.key.text.trimmingSpaces
        guard app.snapshot.experiments[key] != nil else { return }
        if app.visibleRows.row(of: key) == nil {
            app.list.filter = ""
            app.list.isFiltering = false
        }
        app.list.selectedKey = key
    }
}
