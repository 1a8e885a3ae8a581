import Foundation
import Testing
@testable import ExperimentCore
@testable import ExperimentStore

/// Payload numbers: kept as written, and read alike by the fast reader and `JSONDecoder`.
struct PayloadNumberTests {
    static func store(payload: String, weight: String = "100") -> Data {
        Data(#"""
        {"experiments": [{"control": "a", "created_at": "2026-01-01T00:00:00Z", "description": "", "key": "e", "revision": 1,
          "salt": "e", "status": "draft", "type": "user", "updated_at": "2026-01-01T00:00:00Z", "updated_by": "x",
          "variants": [{"name": "a", "payload": \#(payload), "ranges": [[0, 10000]], "weight": \#(weight)}], "whitelist": []}],
         "history": [], "revision": 1, "schema_version": 1}
        """#.utf8)
    }

    /// Both readers give the same answer for every number, in a payload and as a weight.
    @Test(arguments: ["-1e-400", "1e400", "-1e400", "1e-130", "5e-324", "12345678901234567890", "9007199254740993", "1.50e-3",
                      "-0.0", "-0", "0e999999999999", "1E+2", "100000000000000000000000000000000000000001", "1e308", "2.5"])
    func bothReadersAgree(literal: String) {
        let data = Self.store(payload: "[\(literal)]")
        #expect(StoreReaderWriterTests.fastPath(data) == StoreReaderWriterTests.foundationPath(data), "payload \(literal)")
        let weighted = Self.store(payload: "null", weight: literal)
        #expect(StoreReaderWriterTests.fastPath(weighted) == StoreReaderWriterTests.foundationPath(weighted), "weight \(literal)")
    }

    /// The fast reader keeps a number's text, and the writer writes it back byte for byte.
    @Test(arguments: ["12345678901234567890", "9007199254740993", "1.50e-3", "-0.0", "1E+2", "12345678901234567890123456789012345678",
                      "1.2345678901234567e-200"])
    func numbersKeepTheirText(literal: String) throws {
        let data = Self.store(payload: "{\"n\": \(literal)}")
        let snapshot = try StoreFile.decode(data, path: "s.json")
        #expect(snapshot.experiments["e"]?.variants[0].payload == .object(["n": .number(try #require(JSONNumber(literal: literal)))]))
        let written = String(decoding: StoreFile.encode(snapshot), as: UTF8.self)
        #expect(written.contains("\"payload\": {\"n\": \(literal)}"))
    }

    /// A number no reader can keep exactly is refused by both, named, never rounded.
    @Test func overPreciseNumbersAreRefusedByBothReaders() {
        let data = Self.store(payload: "[100000000000000000000000000000000000000001]")
        let problem = StoreProblem("$", "the number 100000000000000000000000000000000000000001 has more precision than abconsole keeps exactly (38 significant digits, or a double's)")
        #expect(StoreReaderWriterTests.fastPath(data) == .error(.invalid(path: "s.json", problems: [problem])))
        #expect(StoreReaderWriterTests.foundationPath(data) == .error(.invalid(path: "s.json", problems: [problem])))
    }

    /// Numbers are equal by value, whatever their text.
    @Test func equalityIsByValue() throws {
        let pairs = [("1e3", "1000"), ("1000.0", "1e3"), ("-0", "0"), ("0.5", "5e-1"), ("12345678901234567890", "1.234567890123456789e19")]
        for (left, right) in pairs {
            let a = try #require(JSONNumber(literal: left)), b = try #require(JSONNumber(literal: right))
            #expect(a == b && a.hashValue == b.hashValue, "\(left) \(right)")
        }
        #expect(JSONNumber(literal: "9007199254740993") != JSONNumber(literal: "9007199254740992"))
        for bad in ["-1e-400", "1e400", "01", "1.", ".5", "+1", "NaN", "Infinity", "0x10", " 1"] { #expect(JSONNumber(literal: bad) == nil, "\(bad)") }
    }

    /// Payloads deeper than the limit are refused when parsed, with their depth.
    @Test func deepPayloadsAreRefusedWithTheirDepth() {
        let limit = JSONValue.maxLevels
        #expect((try? JSONValue.parse(String(repeating: "[", count: limit) + "1" + String(repeating: "]", count: limit)).get()) != nil)
        #expect(JSONValue.parse(String(repeating: "[", count: 600) + String(repeating: "]", count: 600)) == .failure(.tooDeep(levels: 600)))
        #expect(JSONValue.parse("[1,]") == .failure(.invalid))
        #expect(JSONValue.parse(#"{"a":1,"a":2}"#) == .failure(.repeatedKey))
        #expect(JSONValue.parse("{\"e\u{301}\":1,\"\u{e9}\":2}") == .failure(.repeatedKey))
    }
}
