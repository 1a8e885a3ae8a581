/// The characters a goal or guardrail metric may be named with (SPEC §12): `[A-Za-z0-9][A-Za-z0-9_.-]{0,127}`.
///
/// The fronts (`set-metrics`, the console's metrics form) and every change of the metrics refuse
/// other names; a store written before the rule is still read (its validator keeps the looser
/// rule of ids), so an owner renames such a metric the next time the metrics change.
public enum MetricName {
    /// The longest metric name, in characters (ASCII: bytes).
    public static let maxLength = 128

    /// The rule in words, as docs/deciding.md states it.
    public static let rule = "a metric name is 1–128 ASCII letters, digits, `_`, `.` or `-`, starting with a letter or digit"

    /// Why `name` is not a metric name, one sentence; nil when it is one.
    public static func problem(_ name: String) -> String? {
        let bytes = name.utf8
        guard let first = bytes.first else { return "the metric name is empty: " + rule }
        guard bytes.count <= maxLength, isLetterOrDigit(first),
              bytes.allSatisfy({ isLetterOrDigit($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }) else {
            let hint = name.contains(",") ? " (one metric per name: name each guardrail on its own)" : ""
            return "`\(name)` is not a metric name: \(rule)\(hint)"
        }
        return nil
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}

/// Why a typed `M[:decrease]` is not a named metric: a name outside `MetricName`'s rule or a direction other than increase/decrease.
public struct MetricTextError: Error, Equatable, Sendable {
    public let message: String

    public init(_ message: String) { self.message = message }
}
