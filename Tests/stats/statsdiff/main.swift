// abconsole-statsdiff: the Swift side of Tests/stats/gbstats_diff.py, a test tool, not a product.
// Reads one JSON case per line on stdin, writes one JSON result per line on stdout.
//   in:  {"id":1,"kind":"mean","engine":"bayesian|frequentist|sequential",
//         "control":{"n":100,"sum":270,"sum_squares":848.79},"treatment":{...}}
//   out: {"id":1,"lift":…,"lower":…,"upper":…,"chance_to_win":…,"p_value":…,"note":…}  (null when absent)
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

let decoder = JSONDecoder()
let encoder = JSONEncoder()
encoder.outputFormatting = [.sortedKeys]
var failures = 0
while let line = readLine() {
    if line.isEmpty { continue }
    do {
        let item = try decoder.decode(Case.self, from: Data(line.utf8))
        let data = try encoder.encode(run(item))
        print(String(decoding: data, as: UTF8.self))
    } catch {
        FileHandle.standardError.write(Data("statsdiff: bad input line: \(error)\n".utf8))
        failures += 1
    }
}
exit(failures == 0 ? 0 : 1)
