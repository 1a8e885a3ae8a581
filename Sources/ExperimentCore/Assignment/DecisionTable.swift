/// The decision table of SPEC §4, written once: every way of answering (`decide(for:)`,
/// `variantIndex(forID:)`, the batch and per-request kernels) goes through `decide`, and differs
/// only in how it hashes the subject and looks up the whitelist and the bucket's owner.
@usableFromInline
enum DecisionTable {
    /// The row that matches, first match wins:
    ///
    /// | # | condition | variant | reason |
    /// |---|---|---|---|
    /// | 1 | status `resolved` | winner | `resolved` |
    /// | 2 | status `paused` | control | `paused` |
    /// | 3 | no subject id (missing or empty) | control | `noSubject` |
    /// | 4 | whitelisted (draft or running) | whitelisted variant | `whitelisted` |
    /// | 5 | status `draft` | control | `draft` |
    /// | 6 | bucket owned by a variant | that variant | `bucketed` |
    /// | 7 | bucket unallocated | control | `notEnrolled` |
    ///
    /// `hash` is called at most once, only when the subject matters (rows 4–7); `whitelisted` answers
    /// the subject's whitelisted variant index from that hash, `owner` the variant index owning its
    /// bucket or -1. Inlined into every caller, so the closures cost nothing.
    @inlinable @inline(__always)
    static func decide<Hash>(status: ExperimentStatus, winner: Int, control: Int, hasSubject: Bool,
                             hash: () -> Hash, whitelisted: (Hash) -> Int?, owner: (Hash) -> Int) -> (index: Int, reason: DecisionReason) {
        if let everyone = servedToEveryone(status: status, winner: winner, control: control) { return everyone }
        guard hasSubject else { return (control, .noSubject) }
        let hash = hash()
        if let listed = whitelisted(hash) { return (listed, .whitelisted) }
        if status == .draft { return (control, .draft) }
        let owner = owner(hash)
        return owner >= 0 ? (owner, .bucketed) : (control, .notEnrolled)
    }

    /// Rows 1–2: the variant every subject gets whatever its id, or nil when the id decides.
    @inlinable @inline(__always)
    static func servedToEveryone(status: ExperimentStatus, winner: Int, control: Int) -> (index: Int, reason: DecisionReason)? {
        switch status {
        case .resolved: (winner, .resolved)
        case .paused: (control, .paused)
        case .draft, .running: nil
        }
    }
}
