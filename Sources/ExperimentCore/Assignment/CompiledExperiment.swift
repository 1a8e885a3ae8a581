/// An experiment prepared for fast decisions: salt state, bucket bounds and variant indices.
///
/// Everything a decision reads is a value held here: the FNV state after the salt, the segment
/// table, a filter of the whitelisted subjects' first hashes, and the variant a resolved or paused
/// experiment serves to everyone. `decide(for:)` explains a decision; `variantIndex(forID:)` and the
/// batch methods answer the same without building the explanation.
public struct CompiledExperiment: Sendable {
    public let key: String
    public let type: SubjectType
    public let status: ExperimentStatus
    /// Variant names by index.
    public let names: [String]
    let bucketer: Bucketer
    let controlIndex: Int
    let winnerIndex: Int?
    /// The variant served to every subject (resolved: the winner; paused: control), else -1.
    let fixedIndex: Int
    let segments: SegmentTable
    let filter: WhitelistFilter
    let decimal: DecimalHash
    /// The experiment's whitelist, shared with it (no copy).
    let whitelist: [SubjectID: WhitelistEntry]

    public init(_ experiment: Experiment) {
        key = experiment.key
        type = experiment.type
        status = experiment.status
        let names = experiment.variants.map(\.name)
        self.names = names
        bucketer = Bucketer(salt: experiment.salt)
        let controlIndex = names.firstIndex(of: experiment.control) ?? 0
        let winnerIndex = experiment.winner.flatMap { names.firstIndex(of: $0) }
        self.controlIndex = controlIndex
        self.winnerIndex = winnerIndex
        fixedIndex = switch experiment.status {
        case .resolved: winnerIndex ?? controlIndex
        case .paused: controlIndex
        case .draft, .running: -1
        }
        decimal = DecimalHash.shared
        whitelist = experiment.whitelist
        // Only draft and running experiments look at the whitelist (SPEC §4 rows 1, 2 and 4).
        let bucketer = self.bucketer
        filter = experiment.status == .draft || experiment.status == .running
            ? WhitelistFilter(firstHashes: experiment.whitelist.keys.map { bucketer.firstHash(of: $0.text) })
            : WhitelistFilter(firstHashes: [])
        var ranges: [(range: BucketRange, owner: Int)] = []
        for (index, variant) in experiment.variants.enumerated() {
            ranges += variant.ranges.map { ($0, index) }
        }
        ranges.sort { $0.range.start < $1.range.start }
        var starts: [Int] = []
        var owners: [Int] = []
        var cursor = 0
        for segment in ranges {
            if segment.range.start > cursor {
                starts.append(cursor)
                owners.append(-1)
            }
            starts.append(segment.range.start)
            owners.append(segment.owner)
            cursor = segment.range.end
        }
        if cursor < Weight.bucketCount || starts.isEmpty {
            starts.append(cursor)
            owners.append(-1)
        }
        segments = SegmentTable(starts: starts, owners: owners)
    }

    /// The variant index owning `bucket`, or -1 when the bucket is unallocated.
    func owner(of bucket: Int) -> Int { segments.owner(of: bucket) }

    /// Decides the variant for `subject` by the SPEC §4 table, first matching row wins.
    public func decide(for subject: Subject) -> Decision {
        let id = subject.id(for: type)
        func decision(_ index: Int, _ reason: DecisionReason, bucket: Int? = nil) -> Decision {
            Decision(experiment: key, type: type, subject: id, bucket: bucket, variant: names[index], reason: reason)
        }
        let bucket = id.map { bucketer.bucket(of: $0) }
        switch status {
        case .resolved: return decision(winnerIndex ?? controlIndex, .resolved, bucket: bucket)
        case .paused: return decision(controlIndex, .paused, bucket: bucket)
        case .draft, .running: break
        }
        guard let id, let bucket else { return decision(controlIndex, .noSubject) }
        if let index = whitelistedIndex(id) {
            return decision(index, .whitelisted, bucket: bucket)
        }
        if status == .draft { return decision(controlIndex, .draft, bucket: bucket) }
        let owner = owner(of: bucket)
        return owner >= 0 ? decision(owner, .bucketed, bucket: bucket) : decision(controlIndex, .notEnrolled, bucket: bucket)
    }

    /// The index in `names` of the variant `subject` gets: `decide(for:)`'s variant, without the rest.
    @inlinable public func variantIndex(for subject: Subject) -> Int {
        variantIndex(forID: subject.id(for: type))
    }

    /// The index in `names` of the variant served to the subject id `id` of this experiment's type
    /// (nil when the query lacks it).
    public func variantIndex(forID id: String?) -> Int {
        if fixedIndex >= 0 { return fixedIndex }
        guard let id else { return controlIndex }
        let first = id.utf8.withContiguousStorageIfAvailable { bucketer.firstHash(ofUTF8: $0) } ?? bucketer.firstHash(of: id)
        if filter.mayContain(firstHash: first), let index = whitelistedIndex(id) { return index }
        return status == .draft ? controlIndex : bucketedIndex(firstHash: first)
    }

    /// The variant index of a draft or running experiment for a present subject, from its first hash.
    ///
    /// `subject` builds the id only when the whitelist filter says it may be listed.
    @inline(__always)
    func answer(firstHash: UInt32, subject: () -> String?) -> Int {
        if filter.mayContain(firstHash: firstHash), let index = subject().flatMap(whitelistedIndex) { return index }
        return status == .draft ? controlIndex : bucketedIndex(firstHash: firstHash)
    }

    /// Rows 6–7 of SPEC §4: the owner of the subject's bucket, or control when it is unallocated.
    @inline(__always)
    func bucketedIndex(firstHash: UInt32) -> Int {
        let owner = segments.owner(of: decimal.bucket(firstHash: firstHash))
        return owner >= 0 ? owner : controlIndex
    }

    /// Whether every present subject is answered by its bucket alone (running, nobody whitelisted).
    var isBucketedOnly: Bool { status == .running && filter.isEmpty }

    /// The variant index `id` is whitelisted into, if any (byte-exact match, variant present).
    @inline(never)
    func whitelistedIndex(_ id: String) -> Int? {
        guard !whitelist.isEmpty, let entry = whitelist[SubjectID(id)] else { return nil }
        return names.firstIndex(of: entry.variant)
    }
}
