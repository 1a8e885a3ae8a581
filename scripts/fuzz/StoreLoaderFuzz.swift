import Foundation

/// libFuzzer entry for the store loader: `StoreFile.decode` must never trap, whatever the bytes.
///
/// When the bytes decode, the store's promises are checked too: encoding is deterministic and
/// round-trips, and applying ordinary changes to every experiment either works or is refused with an
/// error (never a trap) and leaves a store that still encodes.
@_cdecl("LLVMFuzzerTestOneInput")
public func storeLoaderFuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    guard let snapshot = try? StoreFile.decode(data, path: "fuzz.json") else { return 0 }
    guard let encoded = try? StoreFile.encode(snapshot) else { fatalError("a decoded store does not encode") }
    guard let again = try? StoreFile.decode(encoded, path: "fuzz.json") else { fatalError("an encoded store does not decode") }
    guard (try? StoreFile.encode(again)) == encoded else { fatalError("encoding is not deterministic") }
    let context = ChangeContext(operatorName: "fuzz", now: Date(timeIntervalSince1970: 1_772_359_200))
    for key in snapshot.experiments.keys.sorted() {
        guard let experiment = snapshot.experiments[key] else { continue }
        var changed = snapshot
        let names = experiment.variants.map(\.name)
        var weights: [String: Weight] = [:]
        for (index, name) in names.enumerated() { weights[name] = Weight(buckets: index == 0 ? Weight.bucketCount : 0) }
        let changes: [Change] = [
            .start(experiment: key), .pause(experiment: key), .ramp(experiment: key, weights: weights),
            .whitelistAdd(experiment: key, subject: "fuzz-subject", variant: names.first ?? "", note: ""),
            .whitelistRemove(experiment: key, subject: "fuzz-subject"),
            .addVariant(experiment: key, name: "fuzz-variant", payload: nil),
            .resolve(experiment: key, winner: names.last ?? ""),
        ]
        for change in changes { _ = try? changed.apply(change, context: context) }
        _ = try? StoreFile.encode(changed)
        _ = AssignmentIndex(changed)
    }
    return 0
}
