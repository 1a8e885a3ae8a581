/// Why a comparison has no lift, interval, chance to win or p-value (SPEC §8).
public enum NoEstimateReason: Equatable, Sendable, CustomStringConvertible {
    /// The control or the treatment has fewer than 2 subjects.
    case tooFewSubjects(controlSubjects: Int, treatmentSubjects: Int)
    /// The control's mean (its conversion rate for a proportion) is 0, so a relative lift is undefined.
    case controlMeanZero
    /// A variant's values do not vary (variance 0 or below), e.g. none or all of its subjects converted.
    case noVariance(control: Bool, treatment: Bool)
    /// The numbers are so extreme that the lift or its variance is not a finite number.
    case notFinite

    public var description: String {
        switch self {
        case let .tooFewSubjects(control, treatment):
            let who = control < 2 && treatment < 2 ? "both variants have" : control < 2 ? "the control has" : "the treatment has"
            return "\(who) fewer than 2 subjects (control \(control), treatment \(treatment)); no estimate yet"
        case .controlMeanZero:
            return "the control's mean is 0, so a relative lift is undefined"
        case let .noVariance(control, treatment):
            let who = control && treatment ? "neither variant's values vary" : control ? "the control's values do not vary" : "the treatment's values do not vary"
            return "\(who) (variance 0: every subject has the same value, e.g. none or all converted), so no interval can be computed"
        case .notFinite:
            return "the numbers are too extreme for a finite lift or variance; no estimate"
        }
    }
}
