import Foundation

/// A goal printed beside a figure: at least or at most `value` (in the figure's unit).
struct Target {
    let atLeast: Bool
    let value: Double

    static func atLeast(_ value: Double) -> Target { Target(atLeast: true, value: value) }
    static func atMost(_ value: Double) -> Target { Target(atLeast: false, value: value) }

    func isMet(by figure: Double) -> Bool { atLeast ? figure >= value : figure <= value }

    /// "target ≥ 50: met", or "target ≤ 2: missed by 12 %".
    func verdict(_ figure: Double) -> String {
        let sign = atLeast ? "≥" : "≤"
        if isMet(by: figure) { return "target \(sign) \(Report.number(value)): met" }
        let miss = atLeast ? (value / figure - 1) : (figure / value - 1)
        return "target \(sign) \(Report.number(value)): MISSED by \(Report.number(miss * 100)) %"
    }
}

/// A figure divided by its reference, with an optional goal for that ratio.
struct Ratio {
    let value: Double
    /// What the ratio is, e.g. "time ÷ C -O2".
    let label: String
    var target: Target?

    var text: String {
        var text = "\(label) = \(Report.number(value))×"
        if let target { text += " (\(target.verdict(value)))" }
        return text
    }
}

/// Prints one line per figure; remembers whether any cross-check failed.
enum Report {
    nonisolated(unsafe) static var failures: [String] = []
    nonisolated(unsafe) static var misses = 0

    static func section(_ title: String) {
        print("")
        print("## \(title)")
    }

    static func note(_ text: String) { print("   \(text)") }

    /// One figure: name, median, unit, target and ratio.
    static func figure(_ name: String, _ value: Double, _ unit: String, target: Target? = nil, ratio: Ratio? = nil, detail: String = "") {
        var parts = [name.padding(toLength: max(name.count, 46), withPad: " ", startingAt: 0),
                     number(value).leftPadded(to: 9), unit.padding(toLength: 6, withPad: " ", startingAt: 0)]
        if let target {
            parts.append("[\(target.verdict(value))]")
            if !target.isMet(by: value) { misses += 1 }
        }
        if let ratio {
            parts.append(ratio.text)
            if let target = ratio.target, !target.isMet(by: ratio.value) { misses += 1 }
        }
        if !detail.isEmpty { parts.append("(\(detail))") }
        print(parts.joined(separator: " "))
        fflush(nil)
    }

    /// A cross-check: prints and records a mismatch.
    static func check(_ ok: Bool, _ what: String) {
        if ok {
            print("   check: \(what): ok")
        } else {
            print("   CHECK FAILED: \(what)")
            failures.append(what)
        }
        fflush(nil)
    }

    /// Three significant digits, no exponent.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "\(value)" }
        let magnitude = abs(value)
        let decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : 3
        return String(format: "%.\(decimals)f", value)
    }
}

extension String {
    func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}

/// Clocks: wall time, and the CPU time of this thread (what "per core" means on a shared machine).
enum Clock {
    static func wall() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }

    static func thread() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }
}

/// Seconds of wall and thread CPU time for one run of `body`.
struct Timing {
    var wall: Double
    var cpu: Double

    static func of(_ body: () throws -> Void) rethrows -> Timing {
        let wall = Clock.wall(), cpu = Clock.thread()
        try body()
        return Timing(wall: Clock.wall() - wall, cpu: Clock.thread() - cpu)
    }
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// Keeps a value alive and opaque to the optimizer.
@inline(never) func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }
