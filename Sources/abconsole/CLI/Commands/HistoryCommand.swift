import ExperimentCore
import ExperimentStore
import Foundation

/// `history [EXP] [--limit N] [--since T] [--operator NAME]`: the audit log, oldest first.
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
        // `history --operator NAME` filters; a global `--operator` before the command does not.
        if let name = arguments[Self.operatorName] { entries = entries.filter { $0.operatorName == name } }
        if let text = arguments[since] {
            let since = try sinceDate(text, now: context.now())
            entries = entries.filter { $0.at >= since }
        }
        if let text = arguments[limit] {
            guard let limit = DecimalText.whole(text) else {
                throw CLIError.usage("--limit must be a whole number of entries, not `\(SafeOutput.text(text))`", command: nil)
            }
            entries = Array(entries.suffix(limit))
        }
        if arguments[CommonOptions.json] {
            context.output.line(try SafeOutput.json(entries))
            return
        }
        let rows = entries.map { entry in
            [TimeLabel.utc(entry.at), entry.operatorName, entry.experiment, entry.action.rawValue, entry.changeText]
        }
        SafeOutput.table(["AT", "OPERATOR", "EXPERIMENT", "ACTION", "CHANGE"], rows).forEach(context.output.line)
    }

    /// `--since`: an ISO 8601 time, a date (midnight UTC), or an age such as `30m`, `12h`, `7d`, `2w` before now.
    static func sinceDate(_ text: String, now: Date) throws -> Date {
        if let date = try? Date(text, strategy: .iso8601) { return date }
        if let date = try? Date(text + "T00:00:00Z", strategy: .iso8601), text.count == 10 { return date }
        let units: [Character: Double] = ["m": 60, "h": 3600, "d": 86_400, "w": 604_800]
        if let unit = text.last.flatMap({ units[$0] }), let count = DecimalText.whole(String(text.dropLast())) {
            return now.addingTimeInterval(-Double(count) * unit)
        }
        throw CLIError.usage("--since must be a time such as 2026-03-01, 2026-03-01T09:30:00Z, or an age such as 30m, 12h, 7d; not `\(SafeOutput.text(text))`", command: nil)
    }
}
