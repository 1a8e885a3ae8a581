/// An experiment prepared for fast decisions: salt state, bucket bounds and variant indices.
///
/// What every decision reads is held inline as plain values: the FNV state after the salt, the
/// segment table, the whitelist filter and the variant a resolved or paused experiment serves to
/// everyone. The rest (names, the whitelist itself) sits in one shared, immutable box, so copying a
/// compiled experiment costs one reference count, not one per array. `decide(for:)` explains a
/// decision; `variantIndex(forID:)` and the batch methods answer the same without the explanation.
public struct CompiledExperiment: Sendable {
    /// What every decision reads: plain values only, so reading them never touches a reference count.
    @usableFromInline let hot: Hot
    @usableFromInline let storage: Storage

    @usableFromInline var bucketer: Bucketer { hot.bucketer }
    @usableFromInline var fixedIndex: Int { hot.fixedIndex }
    @usableFromInline var controlIndex: Int { hot.controlIndex }
    @usableFromInline var filter: WhitelistFilter { hot.filter }

    public var key: String { storage.key }
    public var type: SubjectType { storage.type }
    public var status: ExperimentStatus { storage.status }
    /// Variant names by index.
    public var names: [String] { storage.names }

    public init(_ experiment: Experiment) {
        let names = experiment.variants.map(\.name)
        let controlIndex = names.firstIndex(of: experiment.control) ?? 0
        let winnerIndex = experiment.winner.flatMap { names.firstIndex(of: $0) }
        let bucketer = Bucketer(salt: experiment.salt)
        let fixedIndex = switch experiment.status {
        case .resolved: winnerIndex ?? controlIndex
        case .paused: controlIndex
        case .draft, .running: -1
        }
        // Only draft and running experiments look at the whitelist (SPEC §4 rows 1, 2 and 4).
        let filter = experiment.status == .draft || experiment.status == .running
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
        hot = Hot(bucketer: bucketer, fixedIndex: fixedIndex, controlIndex: controlIndex, isDraft: experiment.status == .draft,
                  segments: SegmentTable(starts: starts, owners: owners), filter: filter, decimal: DecimalHash.shared)
        storage = Storage(key: experiment.key, type: experiment.type, status: experiment.status, names: names, winnerIndex: winnerIndex,
                          whitelist: experiment.whitelist, segmentStarts: starts, segmentOwners: owners, filter: filter)
    }

    /// The variant index owning `bucket`, or -1 when the bucket is unallocated.
    @inlinable @inline(__always)
    func owner(of bucket: Int) -> Int {
        hot.segments.isPacked ? hot.segments.owner(of: bucket) : storage.searchedOwner(of: bucket)
    }

    /// Decides the variant for `subject` by the SPEC §4 table, first matching row wins.
    public func decide(for subject: Subject) -> Decision {
        let id = subject.id(for: type)
        let names = names
        func decision(_ index: Int, _ reason: DecisionReason, bucket: Int? = nil) -> Decision {
            Decision(experiment: key, type: type, subject: id, bucket: bucket, variant: names[index], reason: reason)
        }
        let bucket = id.map { bucketer.bucket(of: $0) }
        switch status {
        case .resolved: return decision(storage.winnerIndex ?? controlIndex, .resolved, bucket: bucket)
        case .paused: return decision(controlIndex, .paused, bucket: bucket)
        case .draft, .running: break
        }
        guard let id, let bucket else { return decision(controlIndex, .noSubject) }
        if let index = whitelistedIndex(id) {
            return decision(index, .whitelisted, bucket: bucket)
        }
        if hot.isDraft { return decision(controlIndex, .draft, bucket: bucket) }
        let owner = owner(of: bucket)
        return owner >= 0 ? decision(owner, .bucketed, bucket: bucket) : decision(controlIndex, .notEnrolled, bucket: bucket)
    }

    /// The index in `names` of the variant `subject` gets: `decide(for:)`'s variant, without the rest.
    @inlinable public func variantIndex(for subject: Subject) -> Int {
        variantIndex(forID: subject.id(for: type))
    }

    /// The index in `names` of the variant served to the subject id `id` of this experiment's type
    /// (nil or empty when the query lacks it, as in `decide(for:)`). Inlined into callers, which then read only the plain values
    /// in place (no copy, no reference counting) unless the whitelist filter says "maybe".
    @inlinable @inline(__always)
    public func variantIndex(forID id: String?) -> Int {
        let hot = hot
        if hot.fixedIndex >= 0 { return hot.fixedIndex }
        guard let id, !id.isEmpty else { return hot.controlIndex }
        let first = id.utf8.withContiguousStorageIfAvailable { hot.bucketer.firstHash(ofUTF8: $0) } ?? hot.bucketer.firstHash(of: id)
        if hot.filter.mayContain(firstHash: first), let index = storage.whitelistedIndex(id) { return index }
        return hot.isDraft || !hot.segments.isPacked ? slowIndex(firstHash: first) : hot.bucketedIndex(firstHash: first)
    }

    /// Drafts (control) and experiments whose segments are searched, not packed.
    @usableFromInline
    func slowIndex(firstHash: UInt32) -> Int {
        if hot.isDraft { return hot.controlIndex }
        let owner = storage.searchedOwner(of: hot.decimal.bucket(firstHash: firstHash))
        return owner >= 0 ? owner : hot.controlIndex
    }

    /// The variant index of a draft or running experiment for a present subject, from its first hash.
    ///
    /// `subject` builds the id only when the whitelist filter says it may be listed.
    @inline(__always)
    func answer(firstHash: UInt32, subject: () -> String?) -> Int {
        if hot.filter.mayContain(firstHash: firstHash), let index = subject().flatMap(whitelistedIndex) { return index }
        return hot.isDraft ? hot.controlIndex : bucketedIndex(firstHash: firstHash)
    }

    /// Rows 6–7 of SPEC §4: the owner of the subject's bucket, or control when it is unallocated.
    @inline(__always)
    func bucketedIndex(firstHash: UInt32) -> Int {
        let owner = owner(of: hot.decimal.bucket(firstHash: firstHash))
        return owner >= 0 ? owner : hot.controlIndex
    }

    /// Whether every present subject is answered by its bucket alone (running, nobody whitelisted).
    var isBucketedOnly: Bool { hot.fixedIndex < 0 && !hot.isDraft && hot.filter.isEmpty }

    /// The variant index `id` is whitelisted into, if any (byte-exact match, variant present).
    func whitelistedIndex(_ id: String) -> Int? { storage.whitelistedIndex(id) }
}

extension CompiledExperiment {
    /// The plain values a decision reads.
    @usableFromInline
    struct Hot: Sendable {
        @usableFromInline let bucketer: Bucketer
        /// The variant served to every subject (resolved: the winner; paused: control), else -1.
        @usableFromInline let fixedIndex: Int
        @usableFromInline let controlIndex: Int
        @usableFromInline let isDraft: Bool
        @usableFromInline let segments: SegmentTable
        @usableFromInline let filter: WhitelistFilter
        @usableFromInline let decimal: DecimalHash

        /// The owner of the bucket of a subject with this first hash, or control (requires packed segments).
        @inlinable @inline(__always)
        func bucketedIndex(firstHash: UInt32) -> Int {
            let owner = segments.owner(of: decimal.bucket(firstHash: firstHash))
            return owner >= 0 ? owner : controlIndex
        }
    }

    /// The parts of a compiled experiment that decisions rarely read, shared by every copy.
    @usableFromInline
    final class Storage: @unchecked Sendable {
        let key: String
        let type: SubjectType
        let status: ExperimentStatus
        let names: [String]
        let winnerIndex: Int?
        /// The experiment's whitelist, shared with it (no copy).
        let whitelist: [SubjectID: WhitelistEntry]
        /// Every segment's first bucket and owner, for experiments with too many segments to pack.
        let segmentStarts: [Int]
        let segmentOwners: [Int]
        /// Owns the filter's words.
        private let filter: WhitelistFilter

        init(key: String, type: SubjectType, status: ExperimentStatus, names: [String], winnerIndex: Int?,
             whitelist: [SubjectID: WhitelistEntry], segmentStarts: [Int], segmentOwners: [Int], filter: WhitelistFilter) {
            self.key = key
            self.type = type
            self.status = status
            self.names = names
            self.winnerIndex = winnerIndex
            self.whitelist = whitelist
            self.segmentStarts = segmentStarts
            self.segmentOwners = segmentOwners
            self.filter = filter
        }

        deinit { filter.deallocate() }

        /// The owner of `bucket` by binary search over the segments.
        @usableFromInline @inline(never)
        func searchedOwner(of bucket: Int) -> Int {
            var low = 0, high = segmentStarts.count - 1
            while low < high {
                let mid = (low + high + 1) / 2
                if segmentStarts[mid] <= bucket { low = mid } else { high = mid - 1 }
            }
            return segmentOwners[low]
        }

        @usableFromInline @inline(never)
        func whitelistedIndex(_ id: String) -> Int? {
            guard !whitelist.isEmpty, let entry = whitelist[SubjectID(id)] else { return nil }
            return names.firstIndex(of: entry.variant)
        }
    }
}
