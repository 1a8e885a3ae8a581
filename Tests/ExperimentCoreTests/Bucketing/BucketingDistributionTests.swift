import Testing
@testable import ExperimentCore

/// Bucketing spreads sequential ids evenly and independently across experiments (chi-square tests).
///
/// The ids and salts are fixed, so every statistic is a fixed number: the tests pin it (cross-checked
/// with an independent Python implementation of SPEC §2) and check it against the 99.9 % critical
/// value of the chi-square distribution.
struct BucketingDistributionTests {
    static let subjectCount = 1_000_000
    static let saltA = "account_add_funds"
    static let saltB = "app_color_scheme"

    /// Buckets of `user-0` … `user-999999` under `saltA` and `saltB`, computed once for every test.
    static let buckets: (a: [UInt16], b: [UInt16]) = {
        let first = Bucketer(salt: saltA), second = Bucketer(salt: saltB)
        var a = [UInt16](), b = [UInt16]()
        a.reserveCapacity(subjectCount)
        b.reserveCapacity(subjectCount)
        for number in 0..<subjectCount {
            let id = "user-" + String(number)
            a.append(UInt16(first.bucket(of: id)))
            b.append(UInt16(second.bucket(of: id)))
        }
        return (a, b)
    }()

    /// Pearson's statistic of `counts` against a uniform expectation.
    static func uniformChiSquare(_ counts: [Int]) -> Double {
        let expected = Double(counts.reduce(0, +)) / Double(counts.count)
        return counts.reduce(0) { $0 + (Double($1) - expected) * (Double($1) - expected) / expected }
    }

    @Test func hundredGroupsOfHundredBucketsAreUniform() {
        var counts = [Int](repeating: 0, count: 100)
        for bucket in Self.buckets.a { counts[Int(bucket) / 100] += 1 }
        let statistic = Self.uniformChiSquare(counts)
        #expect(abs(statistic - 73.6482) < 1e-6)
        #expect(statistic < 148.2304) // χ²(0.999, df 99)
    }

    @Test func everyBucketIsUniform() {
        var counts = [Int](repeating: 0, count: Weight.bucketCount)
        for bucket in Self.buckets.a { counts[Int(bucket)] += 1 }
        let statistic = Self.uniformChiSquare(counts)
        #expect(abs(statistic - 9666.68) < 1e-6)
        #expect(statistic < 10_441.7087) // χ²(0.999, df 9999)
        #expect(counts.min() ?? 0 > 0)
    }

    @Test func twoExperimentsBucketIndependently() {
        // 10 × 10 contingency table of the deciles of the same ids in two experiments.
        var table = [[Int]](repeating: [Int](repeating: 0, count: 10), count: 10)
        for (a, b) in zip(Self.buckets.a, Self.buckets.b) { table[Int(a) / 1000][Int(b) / 1000] += 1 }
        let total = Double(Self.subjectCount)
        let rows = table.map { Double($0.reduce(0, +)) }
        let columns = (0..<10).map { column in Double(table.reduce(0) { $0 + $1[column] }) }
        var statistic = 0.0
        for row in 0..<10 {
            for column in 0..<10 {
                let expected = rows[row] * columns[column] / total
                statistic += (Double(table[row][column]) - expected) * (Double(table[row][column]) - expected) / expected
            }
        }
        #expect(abs(statistic - 80.4605675) < 1e-6)
        #expect(statistic < 126.0826) // χ²(0.999, df 81)
    }

    @Test func precomputedSaltStateMatchesHashingTheConcatenation() {
        for number in stride(from: 0, to: Self.subjectCount, by: 9973) {
            let id = "user-" + String(number)
            let expected = Int(Bucketer.rehashDecimal(FNV1a.hash(Self.saltA + id)) % 10_000)
            guard Int(Self.buckets.a[number]) == expected, Bucketer.bucket(salt: Self.saltA, subject: id) == expected else {
                Issue.record("\(id): \(Self.buckets.a[number]) ≠ \(expected)")
                return
            }
        }
    }
}
