import Foundation

/// libFuzzer entry for the CLI's payload argument (`set-payload`, `add-variant --payload`).
///
/// `JSONValue.parse` must never trap; a parsed payload nests at most `JSONValue.maxLevels`, its
/// compact text parses back to the same value, and set on an experiment it survives a save and a
/// load byte for byte — read alike by the fast reader and by `JSONDecoder` (a store is never saved
/// in a form the loader refuses, and both readers agree on every number).
@_cdecl("LLVMFuzzerTestOneInput")
public func payloadFuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    guard let text = String(validating: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self) else { return 0 }
    guard case .success(let payload) = JSONValue.parse(text) else { return 0 }
    guard payload.levels <= JSONValue.maxLevels else { fatalError("a payload of \(payload.levels) levels was accepted") }
    guard case .success(let again) = JSONValue.parse(payload.compactText), again == payload else { fatalError("compact text does not parse back") }
    let context = ChangeContext(operatorName: "fuzz", now: Date(timeIntervalSince1970: 1_772_359_200))
    var snapshot = StoreSnapshot()
    let draft = ExperimentDraft(key: "e", type: .user, variants: [(name: "a", weight: Weight(buckets: 5000)), (name: "b", weight: Weight(buckets: 5000))])
    do {
        try snapshot.apply(.create(draft), context: context)
        try snapshot.apply(.setPayload(experiment: "e", variant: "a", payload: payload), context: context)
    } catch {
        fatalError("an accepted payload was refused by the change: \(error)")
    }
    let encoded = StoreFile.encode(snapshot)
    guard let loaded = try? StoreFile.decode(encoded, path: "fuzz.json") else { fatalError("a saved payload does not load: \(text.prefix(200))") }
    guard loaded.experiments["e"]?.variants[0].payload == payload else { fatalError("the payload changed across a save") }
    guard StoreFile.encode(loaded) == encoded else { fatalError("a second save changed bytes") }
    guard let viaFoundation = try? StoreSnapshot.validated(StoreSnapshot.foundationDocument(encoded, path: "fuzz.json"), path: "fuzz.json"),
          viaFoundation == loaded else { fatalError("JSONDecoder reads the saved payload differently") }
    return 0
}
