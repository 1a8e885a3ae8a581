import Foundation
import Testing

/// Whole-screen text snapshots under `Tests/ConsoleUITests/__Snapshots__/`.
///
/// `RECORD_SNAPSHOTS=1 swift test` (re)writes them; otherwise a mismatch fails with a line diff.
enum Snapshot {
    /// The folder holding the snapshot files, next to this one.
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("__Snapshots__")

    /// Whether this run records instead of comparing.
    static var isRecording: Bool { ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" }

    /// Compares `lines` with the snapshot `name` (a file `name.txt`), or records it.
    static func assert(_ lines: [String], named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let file = directory.appendingPathComponent(name + ".txt")
        let actual = lines.joined(separator: "\n") + "\n"
        if isRecording {
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try actual.write(to: file, atomically: true, encoding: .utf8)
            } catch {
                Issue.record("cannot record snapshot \(file.path): \(error)", sourceLocation: sourceLocation)
            }
            return
        }
        guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
            Issue.record("no snapshot \(name).txt; run with RECORD_SNAPSHOTS=1 to record it", sourceLocation: sourceLocation)
            return
        }
        guard expected != actual else { return }
        let report = "snapshot \(name) differs (RECORD_SNAPSHOTS=1 re-records):\n" + diff(expected: expected, actual: actual)
        Issue.record(Comment(rawValue: report), sourceLocation: sourceLocation)
    }

    /// The differing lines, numbered, as `-expected` / `+actual` pairs.
    static func diff(expected: String, actual: String) -> String {
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var out: [String] = []
        for index in 0..<max(old.count, new.count) {
            let before = index < old.count ? String(old[index]) : nil
            let after = index < new.count ? String(new[index]) : nil
            guard before != after else { continue }
            out.append(String(format: "%3d", index + 1) + " - " + (before.map { "|\($0)|" } ?? "(missing)"))
            out.append(String(format: "%3d", index + 1) + " + " + (after.map { "|\($0)|" } ?? "(missing)"))
        }
        return out.joined(separator: "\n")
    }
}

extension Snapshot {
    /// The text inside the boxes of `lines`, one space between words, so a sentence wrapped in a dialog reads whole.
    static func boxText(_ lines: [String]) -> String {
        lines.map { line in
            guard let first = line.firstIndex(of: "│"), let last = line.lastIndex(of: "│"), first < last else { return line }
            return String(line[line.index(after: first)..<last])
        }.joined(separator: " ").split(separator: " ").joined(separator: " ")
    }
}
