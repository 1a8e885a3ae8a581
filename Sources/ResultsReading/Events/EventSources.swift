import Foundation

/// The files an `--exposures`/`--conversions` argument names (SPEC §13): a file as given, a directory
/// as every `exposures-*` (or `conversions-*`) log in it, in name order.
package enum EventSources {
    /// How the name of an exposures log in a directory starts (`serve` writes `exposures-YYYY-MM-DD.jsonl`).
    package static let exposuresPrefix = "exposures-"
    /// How the name of a conversions log in a directory starts.
    package static let conversionsPrefix = "conversions-"

    /// The logs `paths` name, in order; a directory contributes its logs whose names start with `prefix`
    /// (e.g. `exposures-`) and say a format (`.jsonl`, `.ndjson`, `.csv`); hidden files are skipped.
    package static func files(_ paths: [String], prefix: String) throws(EventError) -> [String] {
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                files.append(path)
                continue
            }
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: path)
            } catch {
                throw .unreadable(file: path, reason: "the directory cannot be listed")
            }
            let base = path.hasSuffix("/") ? path : path + "/"
            files += names.filter { $0.hasPrefix(prefix) && EventFormat.of(path: $0) != nil }.sorted().map { base + $0 }
        }
        return files
    }

    /// The note for a directory that holds no log yet (a server that has received none): it reads as no rows.
    static func emptyNote(_ paths: [String], prefix: String) -> String {
        "\(paths.joined(separator: ", ")): no \(prefix)* log (.jsonl, .ndjson or .csv) yet: read as no rows"
    }
}
