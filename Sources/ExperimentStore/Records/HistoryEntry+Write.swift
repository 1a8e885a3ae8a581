import ExperimentCore
import Foundation

/// A history entry's line, in the form `StoreLayout.HistoryLine` names (read back by `HistoryEntry+Record.swift` in the core).

extension StoreWriter {
    static func append(_ entry: HistoryEntry, to writer: inout ByteWriter, dates: inout DateCache) {
        guard entry.unknownFields.isEmpty, !entry.byMerge else { return appendWithUnknown(entry, to: &writer) }
        writer.append(StoreLayout.HistoryLine.action)
        writer.appendQuoted(entry.action.rawValue)
        writer.append(StoreLayout.HistoryLine.after)
        if let after = entry.after { writer.appendQuoted(after) } else { writer.append("null") }
        writer.append(StoreLayout.HistoryLine.at)
        dates.append(entry.at, to: &writer)
        writer.append(StoreLayout.HistoryLine.before)
        if let before = entry.before { writer.appendQuoted(before) } else { writer.append("null") }
        writer.append(StoreLayout.HistoryLine.experiment)
        writer.appendQuoted(entry.experiment)
        writer.append(StoreLayout.HistoryLine.operatorName)
        writer.appendQuoted(entry.operatorName)
        writer.append(StoreLayout.HistoryLine.end)
    }
}
