import ExperimentCore
import Foundation

/// A whitelist entry's line, in the form `StoreLayout.WhitelistLine` names (read back by `WhitelistEntry+Record.swift`).

extension StoreWriter {
    static func append(_ entry: WhitelistEntry, to writer: inout ByteWriter, dates: inout DateCache) {
        guard entry.unknownFields.isEmpty else { return appendWithUnknown(entry, to: &writer) }
        writer.append(StoreLayout.WhitelistLine.addedAt)
        dates.append(entry.addedAt, to: &writer)
        writer.append(StoreLayout.WhitelistLine.addedBy)
        writer.appendQuoted(entry.addedBy)
        writer.append(StoreLayout.WhitelistLine.note)
        writer.appendQuoted(entry.note)
        writer.append(StoreLayout.WhitelistLine.subject)
        writer.appendQuoted(entry.subject)
        writer.append(StoreLayout.WhitelistLine.variant)
        writer.appendQuoted(entry.variant)
        writer.append(StoreLayout.WhitelistLine.end)
    }
}
