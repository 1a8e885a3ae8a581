import Testing
@testable import ExperimentCore

/// Percent weights: exact parsing to buckets (0.01 % = one bucket), printing, and JSON numbers.
struct WeightTests {
    static let accepted: [(text: String, buckets: Int)] = [
        ("50", 5000), ("12.5", 1250), ("0.01", 1), ("100", 10_000), ("12.50", 1250),
        ("0", 0), ("0.0", 0), ("33.33", 3333), ("99.99", 9999), ("100.00", 10_000), ("7.05", 705),
        ("50%", 5000), (".5", 50),
    ]

    @Test(arguments: accepted.indices)
    func parsesExactBuckets(_ index: Int) {
        let (text, buckets) = Self.accepted[index]
        #expect(Weight.parse(percent: text) == .success(Weight(buckets: buckets)))
    }

    static let rejected: [(text: String, error: WeightParseError)] = [
        ("12.345", .tooManyDecimals), ("0.001", .tooManyDecimals), ("100.001", .tooManyDecimals),
        ("abc", .notANumber), ("-1", .notANumber), ("1e2", .notANumber), ("", .notANumber),
        ("%", .notANumber), ("5.", .notANumber), (".", .notANumber), (" 50", .notANumber), ("50 ", .notANumber),
        ("1.2.3", .notANumber), ("+5", .notANumber), ("١٢", .notANumber), ("NaN", .notANumber),
        ("100.01", .overHundred), ("101", .overHundred), ("999.99", .overHundred),
        ("1000", .overHundred), ("123456789012345678901234567890", .overHundred),
    ]

    @Test(arguments: rejected.indices)
    func rejectsWithReason(_ index: Int) {
        let (text, error) = Self.rejected[index]
        #expect(Weight.parse(percent: text) == .failure(error))
    }

    @Test func leadingZerosReadAsTheSameNumber() {
        #expect(Weight.parse(percent: "050") == .success(Weight(buckets: 5000)))
        #expect(Weight.parse(percent: "0050.5") == .success(Weight(buckets: 5050)))
        #expect(Weight.parse(percent: "0100") == .success(Weight(buckets: 10_000)))
    }

    @Test func errorReasons() {
        #expect(WeightParseError.notANumber.reason == "is not a percentage (use a number such as 12.5)")
        #expect(WeightParseError.tooManyDecimals.reason == "has more than two decimals (0.01 % is the smallest step)")
        #expect(WeightParseError.overHundred.reason == "is over 100 %")
    }

    static let descriptions: [(buckets: Int, text: String)] = [
        (5000, "50"), (1250, "12.5"), (1, "0.01"), (10_000, "100"), (0, "0"), (705, "7.05"),
        (3333, "33.33"), (10, "0.1"), (9999, "99.99"), (1205, "12.05"),
    ]

    @Test(arguments: descriptions.indices)
    func descriptionHasNoTrailingZeros(_ index: Int) {
        let (buckets, text) = Self.descriptions[index]
        #expect(Weight(buckets: buckets).description == text)
    }

    @Test func descriptionRoundTripsForEveryBucketCount() {
        for buckets in 0...Weight.bucketCount {
            let weight = Weight(buckets: buckets)
            guard Weight.parse(percent: weight.description) == .success(weight) else {
                Issue.record("\(buckets) buckets printed as \(weight.description) does not parse back")
                return
            }
        }
    }

    @Test func percentFromDoubles() {
        #expect(Weight(percent: 50) == Weight(buckets: 5000))
        #expect(Weight(percent: 12.5) == Weight(buckets: 1250))
        #expect(Weight(percent: 0.01) == Weight(buckets: 1))
        #expect(Weight(percent: 33.33) == Weight(buckets: 3333))
        #expect(Weight(percent: 0.29) == Weight(buckets: 29)) // 0.29 * 100 = 28.999999999999996
        #expect(Weight(percent: 100) == Weight(buckets: 10_000))
        #expect(Weight(percent: 0) == Weight(buckets: 0))
        #expect(Weight(percent: 0.001) == nil)
        #expect(Weight(percent: 12.345) == nil)
        #expect(Weight(percent: 100.01) == nil)
        #expect(Weight(percent: -1) == nil)
        #expect(Weight(percent: .nan) == nil)
        #expect(Weight(percent: .infinity) == nil)
    }

    @Test func percentAndBackForEveryBucketCount() {
        for buckets in 0...Weight.bucketCount {
            let weight = Weight(buckets: buckets)
            guard Weight(percent: weight.percent) == weight else {
                Issue.record("\(buckets) buckets as \(weight.percent) % does not come back")
                return
            }
        }
    }

    @Test func shareAndOrder() {
        #expect(Weight(buckets: 2500).share == 0.25)
        #expect(Weight(buckets: 1250).percent == 12.5)
        #expect(Weight(buckets: 1) < Weight(buckets: 2))
        #expect(Weight.zero == Weight(buckets: 0))
    }
}
