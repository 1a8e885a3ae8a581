import ExperimentCore
import ExperimentStore
import Foundation
import Testing

/// The exports of stores the writer wrote, whose entries are read from the file's lines
/// (`WrittenWhitelists`), against the reference encoder of the whole store (`ExportReference`):
/// byte for byte through the real process, the entries in-process, and nothing written when the
/// file changes under the export.
@Suite struct WrittenExportTests {
    /// `ClientExportStreamTests`' random store with every entry's strings free of escapes, as entries
    /// are in the writer's form (subjects keep `<`, `</`, `/`, non-ASCII and spaces).
    static func snapshot(seed: UInt64) -> StoreSnapshot {
        var snapshot = ClientExportStreamTests.snapshot(seed: seed)
        func clean(_ text: String) -> String { String(decoding: text.utf8.filter { JSONEscape.written($0) == nil }, as: UTF8.self) }
        for (key, experiment) in snapshot.experiments {
            var whitelist: [SubjectID: WhitelistEntry] = [:]
            for entry in experiment.whitelist.values {
                var clean = WhitelistEntry(subject: clean(entry.subject), variant: entry.variant, note: clean(entry.note),
                                           addedBy: entry.addedBy, addedAt: entry.addedAt)
                if clean.subject.isEmpty { clean.subject = "-" }
                whitelist[SubjectID(clean.subject)] = clean
            }
            snapshot.experiments[key]?.whitelist = whitelist
        }
        return snapshot
    }

    /// A sandbox whose store is `snapshot` as the writer writes it, which the export reads leaving its entries in the file.
    static func sandbox(_ snapshot: StoreSnapshot) throws -> Sandbox {
        let sandbox = try Sandbox(storeBytes: StoreFile.encode(snapshot))
        #expect(WrittenWhitelists(path: sandbox.store) != nil, "the store is not read leaving its entries")
        return sandbox
    }

    @Test(arguments: 1...12 as ClosedRange<UInt64>)
    func exportReadFromTheFilesLinesIsTheEncodersBytes(seed: UInt64) throws {
        let snapshot = Self.snapshot(seed: seed)
        let sandbox = try Self.sandbox(snapshot)
        ClientExportStreamTests.expectReferenceBytes(sandbox, keys: snapshot.experiments.keys.sorted(), "seed \(seed)")
    }

    @Test func aWhitelistSpanningReleasedPagesExportsWhole() throws {
        var snapshot = Self.snapshot(seed: 3)
        let key = try #require(snapshot.sortedExperiments.first { $0.status == .running || $0.status == .draft }?.key)
        let names = try #require(snapshot.experiments[key]?.variants.map(\.name))
        for index in 0..<70_000 {
            let subject = index % 7 == 0 ? "</x>é-\(index)" : "user-\(index)"
            snapshot.experiments[key]?.whitelist[SubjectID(subject)] = WhitelistEntry(
                subject: subject, variant: names[index % names.count], note: "bulk", addedBy: "tester", addedAt: Date(timeIntervalSince1970: 1_767_225_600))
        }
        ClientExportStreamTests.expectReferenceBytes(try Self.sandbox(snapshot), keys: [], "70,000 entries", formats: [["client"], ["growthbook"]])
    }

    @Test(arguments: 1...8 as ClosedRange<UInt64>)
    func entriesReadFromTheFileAreTheSnapshotsInSubjectOrder(seed: UInt64) throws {
        let snapshot = Self.snapshot(seed: seed)
        let sandbox = try Self.sandbox(snapshot)
        let written = try #require(WrittenWhitelists(path: sandbox.store))
        let whitelists = written.snapshot.experiments.values.map(\.whitelist.count)
        #expect(whitelists.allSatisfy { $0 == 0 })
        for experiment in snapshot.sortedExperiments {
            var read: [[String]] = []
            try written.forEachEntry(of: experiment.key) { subject, variant in
                read.append([String(decoding: subject, as: UTF8.self), String(decoding: variant, as: UTF8.self)])
            }
            #expect(read == experiment.sortedWhitelist.map { [$0.subject, $0.variant] }, "seed \(seed) \(experiment.key)")
        }
        var unknown = 0
        try written.forEachEntry(of: "no-such-experiment") { _, _ in unknown += 1 }
        #expect(unknown == 0)
    }

    @Test func aStoreChangedInPlaceWhileExportedIsRefusedWithNothingWritten() throws {
        var snapshot = Self.snapshot(seed: 5)
        let key = try #require(snapshot.sortedExperiments.first?.key)
        snapshot.experiments[key]?.whitelist = [SubjectID("user-1"): WhitelistEntry(
            subject: "user-1", variant: "control", note: "", addedBy: "tester", addedAt: Date(timeIntervalSince1970: 1_767_225_600))]
        let sandbox = try Self.sandbox(snapshot)
        let written = try #require(WrittenWhitelists(path: sandbox.store))
        // Another program rewrites the entry's line in place (abconsole replaces the file, never this).
        var bytes = try #require(sandbox.storeBytes())
        let line = try #require(bytes.range(of: Data(#""subject": "user-1", "variant": "control"}"#.utf8)))
        bytes.replaceSubrange(line, with: Data(#""subject": "user-1"  "variant": "control"}"#.utf8))
        let handle = try #require(FileHandle(forWritingAtPath: sandbox.store))
        try handle.write(contentsOf: bytes)
        try handle.close()
        #expect(throws: WrittenWhitelists.Changed.self) { try written.forEachEntry(of: key) { _, _ in } }
    }

    @Test func anAbandonedStreamedWriteLeavesTheFileAsItWas() throws {
        let sandbox = try Sandbox()
        let path = try sandbox.write("out.json", "the export before\n")
        let before = sandbox.files()
        #expect(throws: FileSystem.Failure.self) {
            _ = try FileSystem.replaceAtomically(path, known: nil) { (writer: inout ByteWriter) throws(FileSystem.Failure) in
                writer.append(Array(repeating: UInt8(ascii: "x"), count: 3 << 20))
                throw FileSystem.Failure.abandoned
            }
        }
        #expect(FileManager.default.contents(atPath: path) == Data("the export before\n".utf8))
        #expect(sandbox.files() == before, "a temp file was left")
    }
}
