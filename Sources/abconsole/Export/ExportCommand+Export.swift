import ExperimentCore
import ExperimentStore
import Foundation

extension ExportCommand {
    /// One export of `keys` (all experiments when empty), written by its format's writer.
    struct Export {
        /// How many experiments it holds.
        let experiments: Int
        let warnings: [String]
        /// Said once on stderr when whitelisted ids ship in the file (SPEC §13): they are readable by
        /// every app that fetches it; nil when none do.
        let whitelistNote: String?
        private let writer: Writer

        private enum Writer {
            case client(ClientExportWriter)
            case growthBook(GrowthBookExportWriter)
        }

        /// The export of `keys` of `snapshot` (whose entries `entries` reads), as `values` asks
        /// (nil: `--format client`); an unknown key is the domain's refusal, nothing is written.
        /// Without `whitelists` (`--no-whitelist`) no experiment whitelists anyone in the file.
        init(_ snapshot: StoreSnapshot, entries: ExportEntries, keys: [String], values: GrowthBookExport.Values?,
             whitelists: Bool = true) throws {
            var snapshot = snapshot, entries = entries
            if !whitelists {
                for key in snapshot.experiments.keys { snapshot.experiments[key]?.whitelist = [:] }
                entries = .values
            }
            let chosen = try ExportCommand.chosen(snapshot, keys: keys)
            let sorted = chosen.sortedExperiments
            experiments = sorted.count
            whitelistNote = Self.whitelistNote(sorted.filter { entries.hasEntries(in: $0) }.map(\.key))
            if let values {
                let writer = try GrowthBookExportWriter(snapshot, experiments: sorted, values: values, entries: entries)
                (warnings, self.writer) = (writer.warnings, .growthBook(writer))
            } else {
                (warnings, writer) = ([], .client(ClientExportWriter(revision: chosen.revision, experiments: sorted, entries: entries)))
            }
        }

        /// The note for `listing`, the experiments whose whitelisted ids the file carries.
        static func whitelistNote(_ listing: [String]) -> String? {
            guard !listing.isEmpty else { return nil }
            let named = listing.prefix(5).joined(separator: ", ") + (listing.count > 5 ? ", …" : "")
            return "the whitelisted ids of \(listing.count) experiment\(listing.count == 1 ? "" : "s") (\(named)) ship in this file, "
                + "readable by every app and person that fetches it; --no-whitelist leaves them out (`serve` answers each app with its own variant only)"
        }

        /// Writes the whole export.
        func write(into writer: inout ByteWriter) throws {
            switch self.writer {
            case .client(let client): try client.write(into: &writer)
            case .growthBook(let growthBook): try growthBook.write(into: &writer)
            }
        }

        /// The whole export as `Data` (for standard output and `--watch`).
        func data() throws -> Data {
            var writer = ByteWriter(capacity: 1 << 20)
            try write(into: &writer)
            return writer.data()
        }
    }
}
