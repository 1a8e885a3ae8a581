import ExperimentCore
import ExperimentEditing

extension NewExperimentForm {
    /// Handles a key while the form is open.
    mutating func handle(_ key: Key, _ intent: Intent?, _ context: ScreenContext) -> ScreenReply {
        problem = nil
        switch intent {
        case .cancel?, .back?:
            return .close(saying: .info("no experiment created"))
        case .nextField?: moveFocus(by: 1)
        case .previousField?: moveFocus(by: -1)
        case .cycleNext?: cycleType(by: 1, key: key)
        case .cyclePrevious?: cycleType(by: -1, key: key)
        case .submit?:
            if let refusal = context.writeRefusal("create an experiment") { return .show(refusal) }
            switch draft(existing: context.snapshot.experiments) {
            case .success(let draft):
                return .start(.apply(.create(draft), expectedRevision: nil))
            case .failure(let problem):
                self.problem = problem.message
                focus(problem.field)
            }
        default:
            type(key)
        }
        return .none
    }

    /// After a create succeeded: select the new experiment in the list (clearing a filter that hides it).
    static func selectCreated(after closed: Overlay?, _ app: inout AppState, rows: RowCache) {
        guard case .newExperiment(let form)? = closed else { return }
        let key = form.key.text.trimmingSpaces
        guard app.snapshot.experiments[key] != nil else { return }
        if rows.listRows(app).row(of: key) == nil {
            app.list.filter = ""
            app.list.isFiltering = false
        }
        app.list.selectedKey = key
    }
}
