/// Per-subject state after the exposures (kept in the subject table): first exposure and variant, or why the subject is set aside.
///
/// A class so the exposures pass updates it from its per-row closure without a dynamic exclusivity
/// check per row (one thread at a time updates it).
final class SubjectStates {
    /// A subject's variant index, or one of these markers.
    static let multiple: Int16 = -2
    static let whitelisted: Int16 = -3

    let table = SubjectTable()
    @exclusivity(unchecked) var multipleCount = 0
    @exclusivity(unchecked) var unknownVariantRows = 0
    /// The latest exposure to a known variant inside the window (nanoseconds), nil before the first.
    @exclusivity(unchecked) var lastExposure: Int64?

    /// Records an exposure of `subject` (whose key is `key`) to variant `index` at `time`.
    func expose(_ subject: UnsafeBufferPointer<UInt8>, key: SubjectTable.Key, variant index: Int16, at time: Int64) {
        if lastExposure.map({ time > $0 }) ?? true { lastExposure = time }
        let (slot, isNew) = table.intern(subject, key: key, variant: index, at: time)
        if isNew { return }
        let previous = table.expose(slot: slot, variant: index, at: time, marker: Self.multiple)
        if previous != index, previous >= 0 { multipleCount += 1 }
    }

    /// Sets aside every exposed, single-variant subject on `whitelist`; returns how many.
    func removeWhitelisted(_ whitelist: some Sequence<String>) -> Int {
        var removed = 0
        for subject in whitelist {
            guard let slot = table.find(subject), table.variant(at: slot) >= 0 else { continue }
            table.setVariant(Self.whitelisted, at: slot)
            removed += 1
        }
        return removed
    }
}
