import Foundation
import Testing
@testable import ExperimentCore

/// `UTCTimestamp`, the one UTC formatter: the form Foundation's ISO 8601 formatter gives, for any
/// instant of years 0–9999, a fraction only when there is one, and the fronts built on it.
struct UTCTimestampTests {
    @Test func wholeSecondsAreFoundationsISO8601() {
        let formatter = ISO8601DateFormatter()
        var generator = SystemRandomNumberGenerator()
        // 1583 (Foundation's calendar is Gregorian from there) to 9999, and the edges.
        let seconds = [-12_212_553_600, -1, 0, 1, 951_782_400, 1_772_359_200, 253_402_300_799]
            + (0..<2_000).map { _ in Int.random(in: -12_212_553_600...253_402_300_799, using: &generator) }
        for second in seconds {
            let date = Date(timeIntervalSince1970: Double(second))
            #expect(UTCTimestamp.string(seconds: second) == formatter.string(from: date), "\(second)")
            #expect(UTCTimestamp.string(date) == formatter.string(from: date), "\(second)")
        }
    }

    @Test func aFractionIsWrittenOnlyWhenThereIsOne() {
        #expect(UTCTimestamp.string(seconds: 1_772_359_200) == "2026-03-01T10:00:00Z")
        #expect(UTCTimestamp.string(seconds: 1_772_359_200, nanoseconds: 120_000_000) == "2026-03-01T10:00:00.12Z")
        #expect(UTCTimestamp.string(seconds: 1_772_359_200, nanoseconds: 1) == "2026-03-01T10:00:00.000000001Z")
        #expect(UTCTimestamp.string(Date(timeIntervalSince1970: 1_772_359_200.999)) == "2026-03-01T10:00:00Z", "the fraction is dropped")
        #expect(UTCTimestamp.string(seconds: -62_167_219_200) == "0000-01-01T00:00:00Z")
    }

    @Test func peopleReadTheSameInstant() {
        let date = Date(timeIntervalSince1970: 1_772_359_200.75)
        #expect(TimeLabel.utc(date) == "2026-03-01 10:00:00 UTC")
        #expect(TimeLabel.utcClock(date) == "10:00:00 UTC")
    }
}
