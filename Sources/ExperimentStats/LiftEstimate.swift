/// The relative lift and its delta-method variance, once the inputs allow an estimate (SPEC §8).
struct LiftEstimate: Equatable {
    let lift: Double
    let variance: Double
    let degreesOfFreedom: Double
    let controlSubjects: Int
    let treatmentSubjects: Int

    var standardError: Double { variance.squareRoot() }

    /// An estimate, or why there is none.
    enum Outcome: Equatable {
        case estimate(LiftEstimate)
        case noEstimate(NoEstimateReason)
    }

    /// The estimate, or why there is none: n < 2, control mean 0, a variance ≤ 0, or overflow.
    static func make(control: GroupStatistics, treatment: GroupStatistics, kind: MetricKind) -> Outcome {
        guard control.subjects >= 2, treatment.subjects >= 2,
              let meanC = control.mean(), let meanT = treatment.mean(),
              let varC = control.variance(kind: kind), let varT = treatment.variance(kind: kind)
        else {
            return .noEstimate(.tooFewSubjects(controlSubjects: control.subjects, treatmentSubjects: treatment.subjects))
        }
        guard meanC != 0 else { return .noEstimate(.controlMeanZero) }
        guard varC > 0, varT > 0 else { return .noEstimate(.noVariance(control: !(varC > 0), treatment: !(varT > 0))) }

        let nC = Double(control.subjects)
        let nT = Double(treatment.subjects)
        let lift = (meanT - meanC) / abs(meanC)
        let meanC2 = meanC * meanC
        let variance = varT / (nT * meanC2) + varC * meanT * meanT / (nC * meanC2 * meanC2)
        let dfNumerator = varT / nT + varC / nC
        let df = dfNumerator * dfNumerator / (varT * varT / (nT * nT * (nT - 1)) + varC * varC / (nC * nC * (nC - 1)))
        guard lift.isFinite, variance.isFinite, variance > 0, df.isFinite, df > 0 else {
            return .noEstimate(.notFinite)
        }
        return .estimate(LiftEstimate(
            lift: lift, variance: variance, degreesOfFreedom: df,
            controlSubjects: control.subjects, treatmentSubjects: treatment.subjects
        ))
    }
}
