@testable import abconsole
import ExperimentCore
import ExperimentStore
import Foundation
import Testing

/// The export writers in-process against the reference encoder (`ExportReference`): whitelists from
/// the snapshot's values and from the store file's lines give the reference's bytes, and strings and
/// payloads are escaped as the encoder escapes them, HTML-safe.
@Suite struct ExportWriterTests {
    @Test(arguments: 1...24 as ClosedRange<UInt64>)
    func bothEntrySourcesWriteTheReferenceBytes(seed: UInt64) throws {
        let snapshot = WrittenExportTests.snapshot(seed: seed)
        let sandbox = try WrittenExportTests.sandbox(snapshot)
        let written = try #require(WrittenWhitelists(path: sandbox.store))
        let keys = snapshot.experiments.keys.sorted()
        for values in [nil, GrowthBookExport.Values.names, .payloads] {
            for chosen in Set([[], Array(keys.prefix(1))]) {
                guard case .exported(let reference, let warnings) = try ExportReference.export(snapshot, keys: chosen, values: values) else { continue }
                let fromValues = try ExportCommand.Export(snapshot, entries: .values, keys: chosen, values: values)
                let fromFile = try ExportCommand.Export(written.snapshot, entries: .written(written), keys: chosen, values: values)
                #expect(try fromValues.data() == reference, "seed \(seed) \(String(describing: values)) \(chosen): from values")
                #expect(try fromFile.data() == reference, "seed \(seed) \(String(describing: values)) \(chosen): from the file's lines")
                #expect(fromValues.warnings == warnings && fromFile.warnings == warnings, "seed \(seed): warnings")
            }
        }
    }

    @Test func withoutWhitelistsNoIDShips() throws {
        let snapshot = WrittenExportTests.snapshot(seed: 7)
        var bare = snapshot
        for key in bare.experiments.keys { bare.experiments[key]?.whitelist = [:] }
        for values in [nil, GrowthBookExport.Values.names] {
            guard case .exported(let reference, _) = try ExportReference.export(bare, keys: [], values: values) else { continue }
            let export = try ExportCommand.Export(snapshot, entries: .values, keys: [], values: values, whitelists: false)
            #expect(try export.data() == reference)
            #expect(export.whitelistNote == nil)
        }
    }

    @Test(arguments: 1...200 as ClosedRange<UInt64>)
    func stringsAndPayloadsAreTheEncodersEscapesHTMLSafe(seed: UInt64) throws {
        var random = ClientExportStreamTests.Random(state: seed)
        let text = ClientExportStreamTests.text(&random) + (seed % 3 == 0 ? "<" : "") + (seed % 5 == 0 ? "/" : "")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var writer = ByteWriter(capacity: 64)
        writer.appendHTMLSafeQuoted(text)
        #expect(writer.data() == HTMLSafeJSON.escapingClosingTags(try encoder.encode(text)), "seed \(seed): \(text.debugDescription)")
        let payload = ClientExportStreamTests.payload(&random)
        var payloadWriter = ByteWriter(capacity: 64)
        payloadWriter.appendHTMLSafe(payload)
        #expect(payloadWriter.data() == HTMLSafeJSON.escapingClosingTags(Data(payload.compactText.utf8)), "seed \(seed): \(payload.compactText)")
    }

    @Test func everyClosingTagIsEscapedAndNothingElse() {
        var writer = ByteWriter(capacity: 64)
        writer.appendHTMLSafeQuoted("</script><//<a/</")
        #expect(String(decoding: writer.data(), as: UTF8.self) == #""<\/script><\//<a/<\/""#)
    }
}
