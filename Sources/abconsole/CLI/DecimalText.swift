import ExperimentResults

/// The one reading of a number on the command line: plain decimal digits (`12`, `0.5`, `.5`), and
/// for a share also a percent (`5%`). Every numeric option and variable goes through it.
///
/// `Double("0x10")` is 16, `Double("1e2")` 100 and `Double("inf")` infinite: a typo would silently
/// mean something else, so those are refused.
enum DecimalText {
    /// The value of `text` when it is digits with an optional fraction (`7`, `0.25`, `.5`); nil otherwise.
    static func value(_ text: String) -> Double? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard !text.isEmpty, text != ".", parts.allSatisfy({ $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }) else { return nil }
        return Double(text)
    }

    /// The value of `text` when it is a whole number in digits only (`0`, `25`); nil otherwise (`+5`, `1.0`, `0x10`).
    static func whole(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(text)
    }

    /// A share written as a fraction (`0.05`) or a percent (`5%`, `2.5%`): the fraction, and whether it
    /// was a percent; nil when it is neither.
    static func share(_ text: String) -> (value: Double, percent: Bool)? {
        if text.hasSuffix("%") {
            return value(String(text.dropLast())).map { ($0 / 100, true) }
        }
        return value(text).map { ($0, false) }
    }

    /// The option's number: `fallback` when it is not given, refused (64) unless it reads as digits and `valid` holds.
    static func option(_ arguments: ParsedArguments, _ option: Option, default fallback: Double, _ wanted: String,
                       valid: (Double) -> Bool) throws -> Double {
        guard let text = arguments[option] else { return fallback }
        let name = option.name
        guard let number = value(text), number.isFinite, valid(number) else {
            throw CLIError.usage("\(name) must be \(wanted), not `\(SafeOutput.text(text))`", command: nil)
        }
        return number
    }

    /// The option's share (`5%` or `0.05`): `fallback` when not given; a bare number of 1 or more is refused
    /// with the percent it likely meant (`--mde 5` would be 500 %), and so is a share outside `valid`.
    static func shareOption(_ arguments: ParsedArguments, _ option: Option, default fallback: Double, _ wanted: String,
                            valid: (Double) -> Bool) throws -> Double {
        guard let text = arguments[option] else { return fallback }
        let name = option.name
        guard let share = share(text), share.value.isFinite else {
            throw CLIError.usage("\(name) must be \(wanted), not `\(SafeOutput.text(text))`", command: nil)
        }
        guard share.percent || share.value < 1 else {
            throw CLIError.usage("\(name) \(SafeOutput.text(text)) would mean \(DecisionText.effectWords(share.value)); write a percent with % or a fraction below 1 — did you mean \(SafeOutput.text(text))%?", command: nil)
        }
        guard valid(share.value) else {
            throw CLIError.usage("\(name) must be \(wanted), not `\(SafeOutput.text(text))`", command: nil)
        }
        return share.value
    }
}
