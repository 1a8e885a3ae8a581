import ExperimentCore

/// The detail screen's edit keys (`v`, `P`, `E`, `D`): the form or confirmation each opens (`M`'s metrics form also reads the logs: `ConsoleUpdate`).
enum ExperimentEdits {
    /// The form or confirmation `intent` opens on `experiment` (dispatch has checked `Intent.availability`).
    static func ask(_ intent: Intent, _ experiment: Experiment) -> ScreenReply {
        switch intent {
        case .addVariant: .present(.variant(VariantForm(.add, experiment)), status: .clear)
        case .setPayload: .present(.variant(VariantForm(.payload, experiment)), status: .clear)
        case .editDescription: .present(.textEdit(.description(of: experiment)), status: .clear)
        case .deleteDraft: askDelete(experiment)
        default: .none
        }
    }

    /// The `y` confirmation for deleting a draft (availability keeps it to drafts; the core refuses the rest).
    private static func askDelete(_ experiment: Experiment) -> ScreenReply {
        let listed = experiment.whitelist.isEmpty ? "" : " and its \(experiment.whitelist.count)-entry whitelist"
        return .present(.confirm(Confirmation(
            title: "Delete the draft \(experiment.key)?",
            lines: ["It was never started, so no subject was ever served it.",
                    "Its variants (\(experiment.weightSummary))\(listed) are removed; the history keeps a line."],
            change: .delete(experiment: experiment.key), expectedRevision: experiment.revision)), status: .clear)
    }
}
