import ExperimentResults
import Testing

/// How numbers are written beside each other in results tables: totals and means group like the counts.
@Suite struct ResultsFormatTests {
    @Test func numbersGroupThousandsAsCountsDo() {
        #expect(ResultsFormat.number(5598.25) == "5,598.25")
        #expect(ResultsFormat.number(1_234_567.5) == "1,234,567.5")
        #expect(ResultsFormat.number(-98_765.4321) == "-98,765.43")
        #expect(ResultsFormat.number(12345) == ResultsFormat.count(12345))
        #expect(ResultsFormat.number(999.5) == "999.5")
        #expect(ResultsFormat.number(4.1866) == "4.187")
        #expect(ResultsFormat.number(-0.00123) == "-0.0012")
    }

    @Test func hugeAndOddValuesStayReadable() {
        #expect(ResultsFormat.number(1e20) == "100,000,000,000,000,000,000")
        #expect(ResultsFormat.number(.infinity) == "inf")
        #expect(ResultsFormat.number(.nan) == "nan")
    }
}
