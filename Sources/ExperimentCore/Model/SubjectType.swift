/// Whether an experiment buckets users (by user id) or devices (by device id).
public enum SubjectType: String, Codable, Hashable, Sendable, CaseIterable {
    case user, device
}
