import Foundation

/// libFuzzer entry for the whitelist CSV reader: `WhitelistCSV.parse` must never trap.
///
/// When the bytes parse, every row must name a line within the file, and importing the rows into an
/// experiment must either work or be refused with an error, never trap; an accepted import holds no
/// BOM or other invisible character in a subject (the seeds and `bom.dict` put BOMs anywhere).
@_cdecl("LLVMFuzzerTestOneInput")
public func whitelistCSVFuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    guard let rows = try? WhitelistCSV.parse(data) else { return 0 }
    let lines = data.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
    for row in rows where row.line < 1 || row.line > lines { fatalError("row line \(row.line) outside 1...\(lines)") }
    let context = ChangeContext(operatorName: "fuzz", now: Date(timeIntervalSince1970: 1_772_359_200))
    var snapshot = StoreSnapshot()
    let draft = ExperimentDraft(key: "e", type: .user, variants: [(name: "a", weight: Weight(buckets: 5000)), (name: "b", weight: Weight(buckets: 5000))])
    guard (try? snapshot.apply(.create(draft), context: context)) != nil else { fatalError("cannot create the fixture experiment") }
    if (try? snapshot.apply(.whitelistImport(experiment: "e", rows: rows), context: context)) != nil {
        // A BOM (or another invisible character) never reaches a whitelisted subject, wherever it was in the file.
        for row in rows where row.subject.unicodeScalars.contains(where: Identifier.isInvisible) {
            fatalError("imported an invisible character in \(row.subject.debugDescription)")
        }
        guard let encoded = try? StoreFile.encode(snapshot), (try? StoreFile.decode(encoded, path: "fuzz.json")) != nil else {
            fatalError("an accepted import leaves a store that does not round-trip")
        }
    }
    return 0
}
