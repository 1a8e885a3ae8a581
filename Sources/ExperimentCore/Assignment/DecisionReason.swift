/// Why a subject was given a variant: the row of the decision table that matched (SPEC §4).
public enum DecisionReason: String, Codable, Hashable, Sendable, CaseIterable {
    case resolved, paused
    case noSubject = "no_subject"
    case whitelisted, draft, bucketed
    case notEnrolled = "not_enrolled"
}
