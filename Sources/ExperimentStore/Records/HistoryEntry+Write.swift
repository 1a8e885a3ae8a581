import ExperimentCore
import Foundation

/// A history entry's line (read back by `HistoryEntry+Record.swift` in the core).

extension StoreWriter {
    static func append(_ entry: HistoryEntry, to writer: inout ByteWriter, dates: inout DateCache) {
        writer.append("{\"action\": ")
        writer.appendQuoted(entry.action.rawValue)
        writer.append(", \"after\": ")
        if let after = entry.after { writer.appendQuoted(after) } else { writer.append("null") }
        writer.append(", \"at\": ")
        dates.append(entry.at, to: &writer)
        writer.append(", \"before\": ")
        if let before = entry.before { writer.appendQuoted(before) } else { writer.append("null") }
        writer.append(", \"experiment\": ")
        writer.appendQuoted(entry.experiment)
        writer.append(", \"operator\": ")
        writer.appendQuoted(entry.operatorName)
        writer.append("}")
    }
}
