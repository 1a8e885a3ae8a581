@testable import ExperimentResults
import Testing

@Suite struct EventTimeTests {
    private func nanos(_ text: String) -> Int64? { try? EventTime.parse(text).get() }

    @Test func readsTheForms() {
        #expect(nanos("2026-11-20T10:15:02Z") == 1_795_169_702_000_000_000)
        #expect(nanos("1970-01-01T00:00:00Z") == 0)
        #expect(nanos("2026-11-20T10:15:02.5Z") == 1_795_169_702_500_000_000)
        #expect(nanos("2026-11-20T10:15:02.123456789Z") == 1_795_169_702_123_456_789)
        #expect(nanos("2026-11-20T10:15:02.1234567891Z") == 1_795_169_702_123_456_789)
        #expect(nanos("2026-11-20T11:15:02+01:00") == nanos("2026-11-20T10:15:02Z"))
        #expect(nanos("2026-11-20T04:45:02-05:30") == nanos("2026-11-20T10:15:02Z"))
        #expect(nanos("2026-11-20t10:15:02z") == nanos("2026-11-20T10:15:02Z"))
        #expect(nanos("2026-11-20 10:15:02Z") == nanos("2026-11-20T10:15:02Z"))
        #expect(nanos("2028-02-29T00:00:00Z") != nil)
        #expect(nanos("2000-02-29T00:00:00Z") != nil)
        #expect(nanos("2026-12-31T23:59:60Z") == nanos("2027-01-01T00:00:00Z"))
    }

    @Test(arguments: [
        "2026-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z",
        "2026-11-20T24:00:00Z", "2026-11-20T10:60:00Z", "2026-11-20T10:15:61Z", "2026-11-20T10:15:02", "2026-11-20T10:15:02+0100",
        "2026-11-20T10:15:02+25:00", "2026-11-20T10:15:02.Z", "2026-11-20T10:15:02ZZ", "2026-11-20", "20261120T101502Z",
        "2026-1-20T10:15:02Z", "２026-11-20T10:15:02Z", "1500-01-01T00:00:00Z", "9999-01-01T00:00:00Z", "",
    ])
    func refusesImpossibleOrMalformed(_ text: String) {
        #expect(nanos(text) == nil, "\(text) was accepted")
    }

    @Test func namesTheProblem() {
        guard case .failure(let problem) = EventTime.parse("2026-02-30T00:00:00Z") else { Issue.record("accepted"); return }
        #expect(problem.reason == "day 30 does not exist in 2026-02")
    }

    @Test func formatsBack() {
        for text in ["2026-11-20T10:15:02Z", "2026-11-20T10:15:02.5Z", "1999-12-31T23:59:59.000000001Z", "1969-07-20T20:17:40Z"] {
            #expect(EventTime.format(nanos(text) ?? 0) == text)
        }
    }

    @Test func theEndsOfNanosecondTimeFormatWithoutOverflow() {
        #expect(EventTime.format(.min) == "1677-09-21T00:12:43.145224192Z")
        #expect(EventTime.format(.max) == "2262-04-11T23:47:16.854775807Z")
        #expect(EventTime.format(-1) == "1969-12-31T23:59:59.999999999Z")
        #expect(EventTime.nanos(seconds: 1e300) == .max && EventTime.nanos(seconds: -1e300) == .min)
    }
}
