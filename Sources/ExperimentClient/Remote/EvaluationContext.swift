import ExperimentCore

/// Who a server evaluates for (OFREP's evaluation context): the user, the device, or OpenFeature's
/// `targetingKey`, which stands for the user when `userId` is absent (SPEC §13).
public struct EvaluationContext: Hashable, Sendable, Codable {
    public var userId: String?
    public var deviceId: String?
    public var targetingKey: String?

    public init(userId: String? = nil, deviceId: String? = nil, targetingKey: String? = nil) {
        self.userId = userId
        self.deviceId = deviceId
        self.targetingKey = targetingKey
    }

    /// The context of `subject`: its user id and device id.
    public init(_ subject: Subject) {
        self.init(userId: subject.userID, deviceId: subject.deviceID)
    }

    /// The id an exposure of a `SPLIT` answer names: the one the experiment buckets by (`type`,
    /// from the answer's `metadata.subjectType`); for an answer that does not say, the user (or
    /// `targetingKey`) when the context has one, else the device.
    func exposureSubject(_ type: SubjectType?) -> String? {
        let ids = switch type {
        case .user: [userId, targetingKey]
        case .device: [deviceId]
        case nil: [userId, targetingKey, deviceId]
        }
        return ids.lazy.compactMap { $0 }.first { !$0.isEmpty }
    }
}
