import Foundation

/// Where the console reads the event logs: given, else `events/exposures.jsonl` and `events/conversions.jsonl` beside the store.
package struct EventPaths: Equatable, Sendable {
    package var exposures: String
    package var conversions: String

    package init(exposures: String, conversions: String) {
        self.exposures = exposures
        self.conversions = conversions
    }

    /// The defaults of SPEC §8, with `$ABCONSOLE_EXPOSURES` / `$ABCONSOLE_CONVERSIONS` taking precedence when given.
    package init(besideStore storePath: String, environment: [String: String] = [:]) {
        let directory = URL(fileURLWithPath: storePath).deletingLastPathComponent().path
        let events = (directory.isEmpty ? "." : directory) + "/events/"
        exposures = environment["ABCONSOLE_EXPOSURES"].flatMap { $0.isEmpty ? nil : $0 } ?? events + "exposures.jsonl"
        conversions = environment["ABCONSOLE_CONVERSIONS"].flatMap { $0.isEmpty ? nil : $0 } ?? events + "conversions.jsonl"
    }
}
