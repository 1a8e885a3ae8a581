/// Per-subject state after the exposures: first exposure time and variant, or why the subject is set aside.
struct SubjectStates {
    /// A subject's variant index, or one of these markers.
    static let multiple: Int16 = -2
    static let whitelisted: Int16 = -3

    var table = SubjectTable()
    var firstExposure: [Int64] = []
    var variant: [Int16] = []
    var multipleCount = 0
    var unknownVariantRows = 0

    /// Records an exposure of `subject` to variant `index` at `time`.
    mutating func expose(_ subject: UnsafeBufferPointer<UInt8>, variant index: Int16, at time: Int64) {
        let (slot, isNew) = table.intern(subject)
        if isNew {
            firstExposure.append(time)
            variant.append(index)
            return
        }
        if time < firstExposure[slot] { firstExposure[slot] = time }
        let current = variant[slot]
        if current != index, current >= 0 {
            variant[slot] = Self.multiple
            multipleCount += 1
        }
    }

    /// Sets aside every exposed, single-variant subject on `whitelist`; returns how many.
    mutating func removeWhitelisted(_ whitelist: some Sequence<String>) -> Int {
        var removed = 0
        for subject in whitelist {
            guard let slot = table.index(of: subject), variant[slot] >= 0 else { continue }
            variant[slot] = Self.whitelisted
            removed += 1
        }
        return removed
    }
}
