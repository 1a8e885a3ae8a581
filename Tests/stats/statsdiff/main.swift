// abconsole-statsdiff: the Swift side of Tests/stats/gbstats_diff.py, a test tool, not a product.
// Reads one JSON case per line on stdin, writes one JSON result per line on stdout.
//   in:  {"id":1,"kind":"mean","engine":"bayesian|frequentist|sequential",
//         "control":{"n":100,"sum":270,"sum_squares":848.79},"treatment":{...}}
//   out: {"id":1,"lift":…,"lower":…,"upper":…,"chance_to_win":…,"p_value":…,"note":…}  (null when absent)
// Power (Tests/stats/power_diff.py), a line with "op":"power":
//   in:  {"op":"power","id":1,"mde":0.05,"mean_c":0.1,"var_c":0.09,"var_t":0.094,"n_c":1000,"n_t":1000,
//         "target":0.8,"per_day_c":100,"per_day_t":100}
//   out: {"id":1,"power":…,"days_remaining":…}
import ExperimentStats
import Foundation

struct Group: Decodable {
    let n: Int
    let sum: Double
    let sum_squares: Double
}

struct Case: Decodable {
    let id: Int
    let kind: String
    let engine: String
    let control: Group
    let treatment: Group
}

struct Output: Encodable {
    let id: Int
    let lift: Double?
    let lower: Double?
    let upper: Double?
    let chance_to_win: Double?
    let p_value: Double?
    let note: String?
    let error: String?
}

func run(_ item: Case) -> Output {
    guard let kind = MetricKind(rawValue: item.kind) else {
        return Output(id: item.id, lift: nil, lower: nil, upper: nil, chance_to_win: nil, p_value: nil, note: nil, error: "unknown kind \(item.kind)")
    }
    let engine: StatsEngine
    switch item.engine {
    case "bayesian": engine = .bayesian
    case "frequentist": engine = .frequentist(sequential: false)
    case "sequential": engine = .frequentist(sequential: true)
    default:
        return Output(id: item.id, lift: nil, lower: nil, upper: nil, chance_to_win: nil, p_value: nil, note: nil, error: "unknown engine \(item.engine)")
    }
    do {
        let control = try GroupStatistics(subjects: item.control.n, sum: item.control.sum, sumSquares: item.control.sum_squares)
        let treatment = try GroupStatistics(subjects: item.treatment.n, sum: item.treatment.sum, sumSquares: item.treatment.sum_squares)
        let result = Comparison.compare(control: control, treatment: treatment, kind: kind, engine: engine)
        return Output(id: item.id, lift: result.lift, lower: result.interval?.lower, upper: result.interval?.upper,
                      chance_to_win: result.chanceToWin, p_value: result.pValue, note: result.note, error: nil)
    } catch {
        return Output(id: item.id, lift: nil, lower: nil, upper: nil, chance_to_win: nil, p_value: nil, note: nil, error: "\(error)")
    }
}

struct PowerCase: Decodable {
    let id: Int
    let mde: Double
    let mean_c: Double
    let var_c: Double
    let var_t: Double
    let n_c: Double
    let n_t: Double
    let target: Double?
    let per_day_c: Double?
    let per_day_t: Double?
}

struct PowerOutput: Encodable {
    let id: Int
    let power: Double?
    let days_remaining: Int?
}

func runPower(_ item: PowerCase) -> PowerOutput {
    let power = Power.power(mde: item.mde, controlMean: item.mean_c, controlVariance: item.var_c, treatmentVariance: item.var_t,
                            controlSubjects: item.n_c, treatmentSubjects: item.n_t)
    var days: Int?
    if let target = item.target, let perDayC = item.per_day_c, let perDayT = item.per_day_t {
        days = Power.daysRemaining(target: target, mde: item.mde, controlMean: item.mean_c, controlVariance: item.var_c,
                                   treatmentVariance: item.var_t, controlSubjects: item.n_c, treatmentSubjects: item.n_t,
                                   controlPerDay: perDayC, treatmentPerDay: perDayT)
    }
    return PowerOutput(id: item.id, power: power, days_remaining: days)
}

// CUPED (Tests/stats/cuped_diff.py), a line with "op":"cuped": a case as above whose groups also carry
// "covariate_sum", "covariate_sum_squares" and "cross_sum"; the output as above plus "theta".
struct CovariateGroupInput: Decodable {
    let n: Int
    let sum: Double
    let sum_squares: Double
    let covariate_sum: Double
    let covariate_sum_squares: Double
    let cross_sum: Double
}

struct CupedCase: Decodable {
    let id: Int
    let kind: String
    let engine: String
    let control: CovariateGroupInput
    let treatment: CovariateGroupInput
}

struct CupedOutput: Encodable {
    let id: Int
    let lift: Double?
    let lower: Double?
    let upper: Double?
    let chance_to_win: Double?
    let p_value: Double?
    let theta: Double?
    let note: String?
    let error: String?
}

func runCuped(_ item: CupedCase) -> CupedOutput {
    func fail(_ text: String) -> CupedOutput {
        CupedOutput(id: item.id, lift: nil, lower: nil, upper: nil, chance_to_win: nil, p_value: nil, theta: nil, note: nil, error: text)
    }
    guard let kind = MetricKind(rawValue: item.kind) else { return fail("unknown kind \(item.kind)") }
    let engine: StatsEngine
    switch item.engine {
    case "bayesian": engine = .bayesian
    case "frequentist": engine = .frequentist(sequential: false)
    case "sequential": engine = .frequentist(sequential: true)
    default: return fail("unknown engine \(item.engine)")
    }
    func group(_ g: CovariateGroupInput) throws -> CovariateGroup {
        try CovariateGroup(outcome: GroupStatistics(subjects: g.n, sum: g.sum, sumSquares: g.sum_squares),
                           covariate: GroupStatistics(subjects: g.n, sum: g.covariate_sum, sumSquares: g.covariate_sum_squares),
                           crossSum: g.cross_sum)
    }
    do {
        let control = try group(item.control), treatment = try group(item.treatment)
        let result = Comparison.compareAdjusted(control: control, treatment: treatment, kind: kind, engine: engine)
        return CupedOutput(id: item.id, lift: result.lift, lower: result.interval?.lower, upper: result.interval?.upper,
                           chance_to_win: result.chanceToWin, p_value: result.pValue,
                           theta: Comparison.theta(control: control, treatment: treatment, kind: kind), note: result.note, error: nil)
    } catch {
        return fail("\(error)")
    }
}

/// Which kind of case a line is: `cuped`, `power`, or (absent) a plain comparison.
struct Operation: Decodable {
    let op: String?
}

let decoder = JSONDecoder()
let encoder = JSONEncoder()
encoder.outputFormatting = [.sortedKeys]
var failures = 0
while let line = readLine() {
    if line.isEmpty { continue }
    do {
        let data: Data
        let op = try decoder.decode(Operation.self, from: Data(line.utf8)).op
        if op == "cuped" {
            data = try encoder.encode(runCuped(try decoder.decode(CupedCase.self, from: Data(line.utf8))))
        } else if op == "power" {
            data = try encoder.encode(runPower(try decoder.decode(PowerCase.self, from: Data(line.utf8))))
        } else {
            data = try encoder.encode(run(try decoder.decode(Case.self, from: Data(line.utf8))))
        }
        print(String(decoding: data, as: UTF8.self))
    } catch {
        FileHandle.standardError.write(Data("statsdiff: bad input line: \(error)\n".utf8))
        failures += 1
    }
}
exit(failures == 0 ? 0 : 1)
