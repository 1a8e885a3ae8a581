/// Who is asking: an optional user id and an optional device id.
public struct Subject: Hashable, Sendable {
    public var userID: String?
    public var deviceID: String?

    public init(userID: String? = nil, deviceID: String? = nil) {
        self.userID = userID
        self.deviceID = deviceID
    }

    /// The id an experiment of `type` buckets by; an empty id counts as missing (as in GrowthBook).
    @inlinable public func id(for type: SubjectType) -> String? {
        let id = switch type {
        case .user: userID
        case .device: deviceID
        }
        return id?.isEmpty == false ? id : nil
    }
}
