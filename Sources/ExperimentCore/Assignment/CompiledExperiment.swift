/// An experiment prepared for fast decisions: salt state, bucket bounds and variant indices.
///
/// What every decision reads is held inline as plain values: the FNV state after the salt, the
/// segment table, the whitelist filter and the variant a resolved or paused experiment serves to
/// everyone. The rest (names, the whitelist itself) sits in one shared, immutable box, so copying a
/// compiled experiment costs one reference count, not one per array. `decide(for:)` explains a
/// decision; `variantIndex(forID:)` and the batch methods answer the same without the explanation,
/// all through `DecisionTable`.
public struct CompiledExperiment: Sendable {
    /// What every decision reads: plain values only, so reading them never touches a reference count.
    @usableFromInline let hot: Hot
    @usableFromInline let storage: Storage

    @usableFromInline var bucketer: Bucketer { hot.bucketer }
    @usableFromInline var fixedIndex: Int { hot.fixedIndex }
    @usableFromInline var controlIndex: Int { hot.controlIndex }

    public var key: String { storage.key }
    public var type: SubjectType { storage.type }
    public var status: ExperimentStatus { hot.status }
    /// Variant names by index.
    public var names: [String] { storage.names }

    public init(_ experiment: Experiment) {
        self.init(experiment, listed: nil)
    }

    /// An experiment whose whitelist comes as `listed`, subject to variant index (each index being
    /// `names.firstIndex(of: entry.variant)` of its entry), with `experiment.whitelist` left empty:
    /// how a client snapshot keeps a big whitelist (a key and an index an entry, no note or date).
    /// It decides exactly as `init(_:)` does for the experiment with those entries.
    package init(_ experiment: Experiment, listed: [SubjectID: Int32]) {
        self.init(experiment, listed: Optional(listed))
    }

    private init(_ experiment: Experiment, listed: [SubjectID: Int32]?) {
        let names = experiment.variants.map(\.name)
        let controlIndex = names.firstIndex(of: experiment.control) ?? 0
        let winnerIndex = experiment.winner.flatMap { names.firstIndex(of: $0) } ?? controlIndex
        let bucketer = Bucketer(salt: experiment.salt)
        let everyone = DecisionTable.servedToEveryone(status: experiment.status, winner: winnerIndex, control: controlIndex)
        // Only draft and running experiments look at the whitelist (SPEC §4 rows 1, 2 and 4).
        let filter = everyone == nil
            ? WhitelistFilter(firstHashes: listed.map { $0.keys.map { bucketer.firstHash(of: $0.text) } }
                ?? experiment.whitelist.keys.map { bucketer.firstHash(of: $0.text) })
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
        hot = Hot(bucketer: bucketer, status: experiment.status, fixedIndex: everyone?.index ?? -1, controlIndex: controlIndex,
                  winnerIndex: winnerIndex, segments: SegmentTable(starts: starts, owners: owners), filter: filter, decimal: DecimalHash.shared)
        storage = Storage(key: experiment.key, type: experiment.type, names: names, whitelist: experiment.whitelist, listed: listed ?? [:],
                          segmentStarts: starts, segmentOwners: owners, filter: filter)
    }

    /// The variant index owning `bucket`, or -1 when the bucket is unallocated.
    @inlinable @inline(__always)
    func owner(of bucket: Int) -> Int {
        hot.segments.isPacked ? hot.segments.owner(of: bucket) : storage.searchedOwner(of: bucket)
    }

    /// Decides the variant for `subject` by the SPEC §4 table, with the reason and the bucket.
    public func decide(for subject: Subject) -> Decision {
        let id = subject.id(for: type)
        let bucketer = bucketer
        let decided = hot.decide(hasSubject: id != nil, firstHash: { bucketer.firstHash(of: id ?? "") },
                                 listed: { whitelistedIndex(id ?? "") }, owner: owner(of:))
        return Decision(experiment: key, type: type, subject: id, bucket: id.map { bucketer.bucket(of: $0) },
                        variant: names[decided.index], reason: decided.reason)
    }

    /// The index in `names` of the variant `subject` gets: `decide(for:)`'s variant, without the rest.
    @inlinable public func variantIndex(for subject: Subject) -> Int {
        variantIndex(forID: subject.id(for: type))
    }

    /// The index in `names` of the variant served to the subject id `id` of this experiment's type
    /// (nil or empty when the query lacks it), as `decide(for:)` answers. Inlined into callers, which
    /// then read only the plain values in place unless the whitelist filter says "maybe".
    @inlinable @inline(__always)
    public func variantIndex(forID id: String?) -> Int {
        decisionIndex(forID: id).index
    }

    /// The variant index and the table's reason for the subject id `id`: `decide(for:)` without the
    /// bucket and names (what a server answering many subjects reads).
    @inlinable @inline(__always)
    public func decisionIndex(forID id: String?) -> (index: Int, reason: DecisionReason) {
        let hot = hot
        let id = id ?? ""
        return hot.decide(
            hasSubject: !id.isEmpty,
            firstHash: { id.utf8.withContiguousStorageIfAvailable { hot.bucketer.firstHash(ofUTF8: $0) } ?? hot.bucketer.firstHash(of: id) },
            listed: { storage.whitelistedIndex(id) },
            owner: owner(of:)
        )
    }

    /// How its whitelist is held: entries (note, operator and date kept) and subject to variant index
    /// pairs (`init(_:listed:)`); what a server keeps is the pairs only.
    package var heldWhitelist: (entries: Int, indices: Int) { (storage.whitelist.count, storage.listed.count) }

    /// Whether every present subject is answered by its bucket alone (running, nobody whitelisted).
    var isBucketedOnly: Bool { hot.status == .running && hot.filter.isEmpty }

    /// The variant index `id` is whitelisted into, if any (byte-exact match, variant present).
    func whitelistedIndex(_ id: String) -> Int? { storage.whitelistedIndex(id) }
}

extension CompiledExperiment {
    /// The plain values a decision reads.
    @usableFromInline
    struct Hot: Sendable {
        @usableFromInline let bucketer: Bucketer
        @usableFromInline let status: ExperimentStatus
        /// The variant served to every subject (resolved: the winner; paused: control), else -1.
        @usableFromInline let fixedIndex: Int
        @usableFromInline let controlIndex: Int
        @usableFromInline let winnerIndex: Int
        @usableFromInline let segments: SegmentTable
        @usableFromInline let filter: WhitelistFilter
        @usableFromInline let decimal: DecimalHash

        /// `DecisionTable.decide` for this experiment: `firstHash` gives `fnv1a32(salt + subject)`,
        /// `listed` the whitelisted variant (asked only when the filter says "maybe"), `owner` the
        /// owner of a bucket or -1.
        @inlinable @inline(__always)
        func decide(hasSubject: Bool, firstHash: () -> UInt32, listed: () -> Int?, owner: (Int) -> Int) -> (index: Int, reason: DecisionReason) {
            DecisionTable.decide(status: status, winner: winnerIndex, control: controlIndex, hasSubject: hasSubject, hash: firstHash,
                                 whitelisted: { filter.mayContain(firstHash: $0) ? listed() : nil },
                                 owner: { owner(decimal.bucket(firstHash: $0)) })
        }
    }

    /// The parts of a compiled experiment that decisions rarely read, shared by every copy.
    /// `@unchecked Sendable`: every field is a `let`, and `filter`'s words are written in its `init` and only read after.
    @usableFromInline
    final class Storage: @unchecked Sendable {
        let key: String
        let type: SubjectType
        let names: [String]
        /// The experiment's whitelist, shared with it (no copy).
        let whitelist: [SubjectID: WhitelistEntry]
        /// The whitelist as subject to variant index, when it came so (`init(_:listed:)`); empty otherwise.
        let listed: [SubjectID: Int32]
        /// Every segment's first bucket and owner, for experiments with too many segments to pack.
        let segmentStarts: [Int]
        let segmentOwners: [Int]
        /// Owns the filter's words.
        private let filter: WhitelistFilter

        init(key: String, type: SubjectType, names: [String],
             whitelist: [SubjectID: WhitelistEntry], listed: [SubjectID: Int32], segmentStarts: [Int], segmentOwners: [Int], filter: WhitelistFilter) {
            self.key = key
            self.type = type
            self.names = names
            self.whitelist = whitelist
            self.listed = listed
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
            if !listed.isEmpty { return listed[SubjectID(id)].map(Int.init) }
            guard !whitelist.isEmpty, let entry = whitelist[SubjectID(id)] else { return nil }
            return names.firstIndex(of: entry.variant)
        }
    }
}
