/// A variant's share of the bucket space, held exactly as a count of buckets (0.01 % each).
public struct Weight: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The size of the bucket space: 100 % is 10 000 buckets.
    public static let bucketCount = 10_000
    /// No buckets at all.
    public static let zero = Weight(buckets: 0)

    /// The number of buckets this weight owns (weight in percent × 100).
    public let buckets: Int

    /// A weight of exactly `buckets` buckets, unchecked: inside the package it also carries totals
    /// over 100 % into messages. Code outside builds weights with `parse(percent:)`, `init?(percent:)`
    /// or `init?(exactly:)`.
    package init(buckets: Int) { self.buckets = buckets }

    /// A weight of `buckets` buckets, if that is 0…10 000.
    public init?(exactly buckets: Int) {
        guard (0...Weight.bucketCount).contains(buckets) else { return nil }
        self.buckets = buckets
    }

    /// Parses a percentage such as `12.5` or `0.01`; at most two decimals, 0 to 100.
    public static func parse(percent text: String) -> Result<Weight, WeightParseError> {
        let trimmed = text.hasSuffix("%") ? String(text.dropLast()) : text
        let parts = trimmed.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0]
        let fraction = parts.count > 1 ? parts[1] : ""
        let isDigits = { (part: Substring) in part.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } }
        guard !whole.isEmpty || !fraction.isEmpty, isDigits(whole), isDigits(fraction),
              parts.count == 1 || !fraction.isEmpty else { return .failure(.notANumber) }
        guard fraction.count <= 2 else { return .failure(.tooManyDecimals) }
        let significant = whole.drop { $0 == "0" }
        guard significant.count <= 3 else { return .failure(.overHundred) }
        let wholeValue = Int(significant) ?? 0
        let fractionValue = Int(fraction.padding(toLength: 2, withPad: "0", startingAt: 0)) ?? 0
        let buckets = wholeValue * 100 + fractionValue
        guard buckets <= bucketCount else { return .failure(.overHundred) }
        return .success(Weight(buckets: buckets))
    }

    /// The weight from a JSON number in percent, if it is 0–100 with at most two decimals.
    ///
    /// Compared exactly: `percent` must be the double nearest to a whole number of hundredths
    /// (`Double(buckets) / 100` is exactly that double), so `50.00000000001` is refused.
    public init?(percent: Double) {
        guard percent.isFinite, percent >= 0, percent <= 100 else { return nil }
        let buckets = Int((percent * 100).rounded())
        guard Double(buckets) / 100 == percent else { return nil }
        self.buckets = buckets
    }

    /// The weight in percent, as a number.
    public var percent: Double { Double(buckets) / 100 }

    /// The weight as a share in 0…1.
    public var share: Double { Double(buckets) / Double(Weight.bucketCount) }

    /// The percentage without trailing zeros: `50`, `12.5`, `0.01`.
    public var description: String {
        let whole = buckets / 100, fraction = buckets % 100
        if fraction == 0 { return "\(whole)" }
        if fraction % 10 == 0 { return "\(whole).\(fraction / 10)" }
        return fraction < 10 ? "\(whole).0\(fraction)" : "\(whole).\(fraction)"
    }

    public static func < (lhs: Weight, rhs: Weight) -> Bool { lhs.buckets < rhs.buckets }
}

/// Why a percentage could not be read as a weight.
public enum WeightParseError: Error, Hashable, Sendable {
    case notANumber, tooManyDecimals, overHundred

    /// What a person should know about the rejected text.
    public var reason: String {
        switch self {
        case .notANumber: "is not a percentage (use a number such as 12.5)"
        case .tooManyDecimals: "has more than two decimals (0.01 % is the smallest step)"
        case .overHundred: "is over 100 %"
        }
    }
}
