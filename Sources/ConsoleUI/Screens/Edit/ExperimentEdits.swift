import ExperimentCore
import ExperimentStore

/// The detail screen's edit keys (`v`, `P`, `E`, `D`): the form or confirmation each opens, or why not at once.
enum ExperimentEdits {
    /// The form for `intent` on `experiment`, the read-only or status refusal, or the delete confirmation.
    static func ask(_ intent: Intent, _ experiment: Experiment, _ context: ScreenContext) -> ScreenReply {
        switch intent {
        case .addVariant:
            return .refuse(context.changeRefusal(experiment, "its variants", action: "add a variant")) {
                ScreenReply(status: .clear, present: .variant(VariantForm(.add, experiment)))
            }
        case .setPayload:
            return .refuse(context.changeRefusal(experiment, "its payloads", action: "set a payload")) {
                ScreenReply(status: .clear, present: .variant(VariantForm(.payload, experiment)))
            }
        case .editDescription:
            return .refuse(context.writeRefusal("edit the description")) {
                ScreenReply(status: .clear, present: .textEdit(.description(of: experiment)))
            }
        case .deleteDraft:
            return .refuse(context.writeRefusal("delete an experiment")) { askDelete(experiment) }
        default:
            return .none
        }
    }

    /// The `y` confirmation for deleting a draft; any other status is refused with the core's reason.
    private static func askDelete(_ experiment: Experiment) -> ScreenReply {
        guard experiment.status == .draft else {
            return .show(.error(ExperimentError.deleteServed(experiment: experiment.key, status: experiment.status).message))
        }
        let listed = experiment.whitelist.isEmpty ? "" : " and its \(experiment.whitelist.count)-entry whitelist"
        return ScreenReply(status: .clear, present: .confirm(Confirmation(
            title: "Delete the draft \(experiment.key)?",
            lines: ["It was never started, so no subject was ever served it.",
                    "Its variants (\(experiment.weightSummary))\(listed) are removed; the history keeps a line."],
            change: .delete(experiment: experiment.key), expectedRevision: experiment.revision)))
    }
}
