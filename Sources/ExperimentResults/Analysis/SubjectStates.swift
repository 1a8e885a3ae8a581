/// Per-subject state after the exposures: first exposure time and variant, or why the subject is set aside.
struct SubjectStates {
    /// One subject: its first exposure and its variant index (or a marker); 16 bytes, one cache access.
    struct Entry {
        var firstExposure: Int64
        var variant: Int16
    }

    /// A subject's variant index, or one of these markers.
    static let multiple: Int16 = -2
    static let whitelisted: Int16 = -3

    var table = SubjectTable()
    var entries: [Entry] = []
    var multipleCount = 0
    var unknownVariantRows = 0

    /// Records an exposure of `subject` to variant `index` at `time`.
    mutating func expose(_ subject: UnsafeBufferPointer<UInt8>, variant index: Int16, at time: Int64) {
        let (slot, isNew) = table.intern(subject)
        if isNew {
            entries.append(Entry(firstExposure: time, variant: index))
            return
        }
        let multiple = entries.withUnsafeMutableBufferPointer { entries -> Bool in
            if time < entries[slot].firstExposure { entries[slot].firstExposure = time }
            let current = entries[slot].variant
            guard current != index, current >= 0 else { return false }
            entries[slot].variant = Self.multiple
            return true
        }
        if multiple { multipleCount += 1 }
    }

    /// Sets aside every exposed, single-variant subject on `whitelist`; returns how many.
    mutating func removeWhitelisted(_ whitelist: some Sequence<String>) -> Int {
        var removed = 0
        for subject in whitelist {
            guard let slot = table.index(of: subject), entries[slot].variant >= 0 else { continue }
            entries[slot].variant = Self.whitelisted
            removed += 1
        }
        return removed
    }
}
