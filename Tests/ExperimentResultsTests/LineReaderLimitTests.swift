import Foundation
import Testing
@testable import ExperimentResults
@testable import ResultsReading

/// The line reader's limits: cancellation by bytes (not rows), the longest line, regular files only;
/// and the per-metric values stored sparsely until dense pays.
@Suite struct LineReaderLimitTests {
    @Test func aCancelledReadStopsBeforeTheNextChunkEvenInsideOneLine() throws {
        let sandbox = try LogSandbox()
        let path = try sandbox.write("one-line.jsonl", [String(repeating: "x", count: 3 << 20)])
        let progress = ReadProgress()
        progress.cancel()
        var lines = 0
        #expect(throws: EventError.cancelled) {
            try LineReader(path: path).forEachLine(progress: progress) { _, _ in
                lines += 1
                return true
            }
        }
        #expect(lines == 0)
    }

    @Test func aLineLongerThanTheLimitIsNamedByFileAndLine() throws {
        let sandbox = try LogSandbox()
        let path = try sandbox.write("long.jsonl", ["{}", String(repeating: "x", count: LineReader.maxLineBytes + 1)])
        #expect(throws: EventError.malformed(file: path, line: 2, field: nil, reason: "the line is longer than 16 MiB (one event a line)")) {
            try LineReader(path: path).forEachLine { _, _ in true }
        }
        let exact = try sandbox.write("exact.jsonl", [String(repeating: "x", count: LineReader.maxLineBytes)])
        var longest = 0
        try LineReader(path: exact).forEachLine { line, _ in
            longest = max(longest, line.count)
            return true
        }
        #expect(longest == LineReader.maxLineBytes)
    }

    @Test func onlyRegularFilesAreRead() throws {
        #expect(throws: EventError.unreadable(file: "/dev/zero", reason: "it is a device, not a regular file (an event log is read from a file)")) {
            try LineReader(path: "/dev/zero").check()
        }
        #expect(throws: EventError.missing(file: "/no/such/log.jsonl")) { try LineReader(path: "/no/such/log.jsonl").check() }
    }

    @Test func subjectValuesAreSparseUntilAQuarterOfTheSubjectsConverted() {
        var values = SubjectValues()
        #expect(values.isEmpty)
        #expect(values.add(2, at: 7, subjectCount: 100) == 2)
        #expect(values.add(3, at: 7, subjectCount: 100) == 5)
        var seen: [(Int, Double)] = []
        values.forEach { seen.append(($0, $1)) }
        #expect(seen.map(\.0) == [7] && seen.map(\.1) == [5])
        for index in 0..<30 { _ = values.add(1, at: index, subjectCount: 100) }
        var count = 0, total = 0.0
        values.forEach { _, value in
            count += 1
            total += value
        }
        #expect(count == 100 && total == 35)
    }
}
