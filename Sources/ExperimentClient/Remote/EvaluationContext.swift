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

    /// The id an exposure of a `SPLIT` answer names: the user (or `targetingKey`) when the context
    /// has one, else the device. The server's answer does not say which an experiment buckets, so
    /// a device-level experiment's exposures name the device only in a context without a user.
    var exposureSubject: String? {
        [userId, targetingKey, deviceId].lazy.compactMap { $0 }.first { !$0.isEmpty }
    }
}
