/// An experiment prepared for fast decisions: salt state, bucket bounds and variant indices.
public struct CompiledExperiment: Sendable {
    public let key: String
    public let type: SubjectType
    public let status: ExperimentStatus
    /// Variant names by index.
    public let names: [String]
    let bucketer: Bucketer
    let controlIndex: Int
    let winnerIndex: Int?
    /// The first bucket of each segment of the bucket space, ascending; segment 0 starts at 0.
    let segmentStarts: [Int]
    /// The variant index that owns each segment, or -1 when it is unallocated.
    let segmentOwners: [Int]
    /// The experiment's whitelist, shared with it (no copy).
    let whitelist: [SubjectID: WhitelistEntry]

    public init(_ experiment: Experiment) {
        key = experiment.key
        type = experiment.type
        status = experiment.status
        let names = experiment.variants.map(\.name)
        self.names = names
        bucketer = Bucketer(salt: experiment.salt)
        controlIndex = names.firstIndex(of: experiment.control) ?? 0
        winnerIndex = experiment.winner.flatMap { names.firstIndex(of: $0) }
        whitelist = experiment.whitelist
        var segments: [(range: BucketRange, owner: Int)] = []
        for (index, variant) in experiment.variants.enumerated() {
            segments += variant.ranges.map { ($0, index) }
        }
        segments.sort { $0.range.start < $1.range.start }
        var starts: [Int] = []
        var owners: [Int] = []
        var cursor = 0
        for segment in segments {
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
        segmentStarts = starts
        segmentOwners = owners
    }

    /// The variant index owning `bucket`, or -1 when the bucket is unallocated.
    func owner(of bucket: Int) -> Int {
        var low = 0, high = segmentStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if segmentStarts[mid] <= bucket { low = mid } else { high = mid - 1 }
        }
        return segmentOwners[low]
    }

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
        if !whitelist.isEmpty, let entry = whitelist[SubjectID(id)], let index = names.firstIndex(of: entry.variant) {
            return decision(index, .whitelisted, bucket: bucket)
        }
        if status == .draft { return decision(controlIndex, .draft, bucket: bucket) }
        let owner = owner(of: bucket)
        return owner >= 0 ? decision(owner, .bucketed, bucket: bucket) : decision(controlIndex, .notEnrolled, bucket: bucket)
    }
}
