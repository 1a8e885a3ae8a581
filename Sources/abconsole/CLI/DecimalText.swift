/// A number typed as plain decimal digits (`12`, `0.5`), the only form a count of hours or seconds takes.
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
}
