/// What one experiment serves one subject, with the reason and bucket that `inspect` explains.
public struct Decision: Hashable, Sendable {
    public let experiment: String
    public let type: SubjectType
    /// The id the experiment buckets by (user id or device id); nil when the query lacks it.
    public let subject: String?
    /// The subject's bucket in 0..<10000; nil when the subject is missing.
    public let bucket: Int?
    public let variant: String
    public let reason: DecisionReason
}
