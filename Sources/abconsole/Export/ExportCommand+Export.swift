import ExperimentCore
import ExperimentStore
import Foundation

extension ExportCommand {
    /// One export of `keys` (all experiments when empty): streamed pieces, or with
    /// `ABCONSOLE_PLAIN_EXPORT` the plain encoder's bytes of the whole value (the reference in tests).
    struct Export {
        /// How many experiments it holds.
        let experiments: Int
        let warnings: [String]
        /// Said once on stderr when whitelisted ids ship in the file (SPEC §13): they are readable by
        /// every app that fetches it; nil when none do.
        let whitelistNote: String?
        private let pieces: Pieces

        private enum Pieces {
            case stream(ExportStream)
            case plain(Data)
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
            switch (values, ExportEncoding.plain) {
            case (nil, false):
                (warnings, pieces) = ([], .stream(try .client(revision: chosen.revision, experiments: sorted, entries: entries)))
            case (nil, true):
                (warnings, pieces) = ([], .plain(try ClientSnapshotDocument(chosen).encoded()))
            case (let values?, false):
                let (stream, warnings) = try ExportStream.growthBook(snapshot, experiments: sorted, values: values, entries: entries)
                (self.warnings, pieces) = (warnings, .stream(stream))
            case (let values?, true):
                let payload = try GrowthBookExport.payload(snapshot, experiments: sorted, values: values)
                (warnings, pieces) = (GrowthBookExport.warnings(sorted), .plain(try ExportCommand.encode(payload)))
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
            switch pieces {
            case .stream(let stream): try stream.write(into: &writer)
            case .plain(let data): writer.append(data)
            }
        }

        /// The whole export as `Data`.
        func data() throws -> Data {
            switch pieces {
            case .stream(let stream): try stream.data()
            case .plain(let data): data
            }
        }
    }
}
