import ExperimentCore
import ExperimentStore
import Foundation

/// `history [EXP]`: the audit log, oldest first.
enum HistoryCommand {
    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let snapshot = try context.load()
        var entries = snapshot.history
        if let key = arguments.argument("EXP") {
            guard snapshot.experiments[key] != nil || entries.contains(where: { $0.experiment == key }) else {
                throw ExperimentError.unknownExperiment(key)
            }
            entries = entries.filter { $0.experiment == key }
        }
        if arguments.flag("--json") {
            context.output.line(try SafeOutput.json(entries))
            return
        }
        let rows = entries.map { entry in
            [entry.at.formatted(.iso8601), entry.operatorName, entry.experiment, entry.action.rawValue,
             "\(entry.before ?? "∅") → \(entry.after ?? "∅")"]
        }
        SafeOutput.table(["AT", "OPERATOR", "EXPERIMENT", "ACTION", "CHANGE"], rows).forEach(context.output.line)
    }
}
