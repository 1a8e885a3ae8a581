import ExperimentTestSupport
import Foundation
import Testing
@testable import ExperimentCore

/// The fast paths (eight FNV chains side by side, ids read in place, per-request answers) give
/// exactly the plain implementation's answers: `Bucketer.bucket`, `variantIndex(forID:)`, `decide(for:)`.
struct BatchAssignmentTests {
    /// Ids of many shapes and lengths, in an order that mixes lengths within every group of eight.
    static let ids: [String] = {
        var random = SplitMix64(seed: 42)
        var ids = ["user-1", "user-42", "", "x", "héllo", "日本語のユーザー", "👩‍💻-dev-🚀", "device-7f3a", "1001", "a",
                   String(repeating: "é", count: 40), String(repeating: "long-id-", count: 12), String(repeating: "z", count: 300)]
        let hex = Array("0123456789abcdef")
        for number in 0..<1500 {
            switch number % 6 {
            case 0: ids.append("user-\(random.next() % 10_000_000)")
            case 1: ids.append(String((0..<36).map { [8, 13, 18, 23].contains($0) ? "-" : hex[Int(random.next() % 16)] }))
            case 2: ids.append(String((0..<Int(random.next() % 90)).map { _ in Character(UnicodeScalar(UInt8(33 + random.next() % 94))) }))
            case 3: ids.append("ü-\(number)-ß-\(random.next() % 1000)")  // non-ASCII, 2-byte scalars
            case 4: ids.append(String(repeating: "k", count: 17 + number % 64) + "\(number)")  // > 16 and > 64 bytes
            default: ids.append("\(random.next())")
            }
        }
        return ids
    }()

    /// One experiment laid out like the store would: `weights` in buckets from 0, the rest unallocated.
    static func experiment(_ status: ExperimentStatus, salt: String, weights: [Int] = [2000, 3000, 4000],
                           ranges: [[BucketRange]]? = nil, whitelist: [String: Int] = [:], type: SubjectType = .user) -> Experiment {
        var start = 0
        let variants = weights.indices.map { index in
            let laidOut = ranges?[index] ?? (weights[index] > 0 ? [BucketRange(start, start + weights[index])] : [])
            start += weights[index]
            return Variant(name: "v\(index)", weight: Weight(buckets: weights[index]), ranges: laidOut)
        }
        var entries: [SubjectID: WhitelistEntry] = [:]
        for (subject, variant) in whitelist {
            entries[SubjectID(subject)] = WhitelistEntry(subject: subject, variant: "v\(variant)", note: "", addedBy: "alice", addedAt: Fixture.t0)
        }
        return Experiment(key: "exp", type: type, status: status, salt: salt, control: "v1", winner: status == .resolved ? "v2" : nil,
                          description: "", revision: 1, createdAt: Fixture.t0, updatedAt: Fixture.t0, updatedBy: "alice",
                          variants: variants, whitelist: entries)
    }

    /// Running, whitelisted, draft, paused and resolved experiments, with plain and empty salts, and
    /// one with more segments than the packed segment table holds.
    static let experiments: [(String, Experiment)] = {
        let whitelist = Dictionary(uniqueKeysWithValues: ids.enumerated().filter { $0.offset % 7 == 3 }.map { ($0.element, $0.offset % 3) })
        let striped = (0..<3).map { variant in stride(from: variant * 500, to: 9000, by: 1500).map { BucketRange($0, $0 + 500) } }
        return [
            ("running", experiment(.running, salt: "paywall_copy")),
            ("running, empty salt", experiment(.running, salt: "")),
            ("running, GrowthBook-style salt", experiment(.running, salt: "()**(%$##$%#$#")),
            ("running, whitelisted", experiment(.running, salt: "checkout", whitelist: whitelist)),
            ("draft, whitelisted", experiment(.draft, salt: "checkout", whitelist: whitelist)),
            ("paused, whitelisted", experiment(.paused, salt: "checkout", whitelist: whitelist)),
            ("resolved, whitelisted", experiment(.resolved, salt: "checkout", whitelist: whitelist)),
            ("running, 18 segments", experiment(.running, salt: "striped", weights: [3000, 3000, 3000], ranges: striped)),
            ("running, device", experiment(.running, salt: "device_salt", weights: [5000, 5000], type: .device)),
        ]
    }()

    @Test func eightLanesEqualOneChainForEveryLengthMix() {
        var random = SplitMix64(seed: 7)
        for _ in 0..<400 {
            let salt = UInt32(truncatingIfNeeded: random.next())
            let inputs = (0..<8).map { _ in (0..<Int(random.next() % 70)).map { _ in UInt8(truncatingIfNeeded: random.next()) } }
            let expected = inputs.map { bytes in bytes.withUnsafeBufferPointer { FNV1a.hash(continuing: salt, $0) } }
            let got = inputs[0].withUnsafeBufferPointer { a in inputs[1].withUnsafeBufferPointer { b in
                inputs[2].withUnsafeBufferPointer { c in inputs[3].withUnsafeBufferPointer { d in
                    inputs[4].withUnsafeBufferPointer { e in inputs[5].withUnsafeBufferPointer { f in
                        inputs[6].withUnsafeBufferPointer { g in inputs[7].withUnsafeBufferPointer { h in
                            FNVLanes.hash8(salt: salt, a, b, c, d, e, f, g, h)
                        } }
                    } }
                } }
            } }
            #expect([got.0[0], got.0[1], got.0[2], got.0[3], got.1[0], got.1[1], got.1[2], got.1[3]] == expected)
        }
    }

    @Test func stringsAreReadInPlaceFourAtATime() {
        let strings = ["a", "héllo", String(repeating: "long", count: 20), ""]
        let lengths = strings.withUnsafeBufferPointer { buffer in UTF8Quad.withBytes(of: buffer, at: 0) { [$0.count, $1.count, $2.count, $3.count] } }
        #expect(lengths == [1, 6, 80, 0])
        let bytes = strings.withUnsafeBufferPointer { buffer in UTF8Quad.withBytes(of: buffer, at: 0) { _, b, _, _ in Array(b) } }
        #expect(bytes == Array("héllo".utf8))
    }

    @Test(arguments: experiments.indices)
    func batchOverStringsAndPackedBytesEqualsThePlainAnswers(_ which: Int) {
        let (name, experiment) = Self.experiments[which]
        let compiled = CompiledExperiment(experiment)
        // Every count from 0 to 20 (partial groups of eight), then all ids.
        for count in Array(0...20) + [Self.ids.count] {
            let ids = Array(Self.ids.prefix(count))
            var strings = [Int32](repeating: -9, count: ids.count)
            var packed = strings
            strings.withUnsafeMutableBufferPointer { compiled.variantIndices(forIDs: ids, into: $0) }
            packed.withUnsafeMutableBufferPointer { compiled.variantIndices(for: PackedSubjects(ids), into: $0) }
            let plain = ids.map { Int32(compiled.variantIndex(forID: $0)) }
            #expect(strings == plain, "\(name), \(count) ids: [String] batch")
            #expect(packed == plain, "\(name), \(count) ids: packed batch")
        }
        // The plain answers themselves against decide(for:) (an empty id is a missing subject, SPEC §4
        // row 3, on every path) and against the bucket and the ranges.
        for id in Self.ids {
            let subject = experiment.type == .user ? Subject(userID: id) : Subject(deviceID: id)
            let decision = compiled.decide(for: subject)
            #expect(compiled.names[compiled.variantIndex(forID: id)] == decision.variant, "\(name): \(id)")
            guard !id.isEmpty else {
                #expect(decision.reason == .noSubject || decision.reason == .paused || decision.reason == .resolved, "\(name)")
                continue
            }
            let bucket = Bucketer.bucket(salt: experiment.salt, subject: id)
            #expect(decision.bucket == bucket, "\(name): \(id)")
            if experiment.status == .running, experiment.whitelist[SubjectID(id)] == nil {
                let owner = experiment.variants.first { $0.ranges.contains { $0.start <= bucket && bucket < $0.end } }?.name
                #expect(decision.variant == owner ?? experiment.control, "\(name): \(id)")
            }
        }
    }

    @Test func whitelistedSubjectsGetTheirVariantOnEveryFastPath() {
        let listed = ["user-42", "héllo", String(repeating: "q", count: 70)]
        let experiment = Self.experiment(.running, salt: "checkout", whitelist: [listed[0]: 0, listed[1]: 2, listed[2]: 0])
        let compiled = CompiledExperiment(experiment)
        let ids = listed + ["user-43", "hello", "a", "b", "c", "d", "e"] + listed
        var strings = [Int32](repeating: -9, count: ids.count)
        var packed = strings
        strings.withUnsafeMutableBufferPointer { compiled.variantIndices(forIDs: ids, into: $0) }
        packed.withUnsafeMutableBufferPointer { compiled.variantIndices(for: PackedSubjects(ids), into: $0) }
        #expect(Array(strings.prefix(3)) == [0, 2, 0])
        #expect(Array(strings.suffix(3)) == [0, 2, 0])
        #expect(packed == strings)
    }

    @Test func whitelistTableMatchesIdBytesExactlyAndSkipsMissingVariants() {
        let precomposed = "caf\u{E9}", decomposed = "cafe\u{301}"  // canonically equivalent, different bytes
        var experiment = Self.experiment(.running, salt: "checkout", whitelist: [precomposed: 2, "user-42": 0, "ghost": 0])
        experiment.whitelist[SubjectID("ghost")] = WhitelistEntry(subject: "ghost", variant: "gone", note: "", addedBy: "alice", addedAt: Fixture.t0)
        let compiled = CompiledExperiment(experiment)
        for id in [precomposed, decomposed, "user-42", "user-4", "ghost", "", String(repeating: "x", count: 100)] {
            #expect(compiled.names[compiled.variantIndex(forID: id)] == compiled.decide(for: Subject(userID: id)).variant, "\(id)")
        }
        #expect(compiled.variantIndex(forID: precomposed) == 2)
        #expect(compiled.decide(for: Subject(userID: decomposed)).reason != .whitelisted)
        #expect(compiled.decide(for: Subject(userID: "ghost")).reason != .whitelisted)
    }

    @Test func perRequestAnswersEqualThePlainAnswers() {
        let compiled = Self.experiments.map { CompiledExperiment($0.1) }
        let group = ExperimentGroup(compiled)
        var random = SplitMix64(seed: 11)
        for id in Self.ids {
            // Every experiment, then a random request with repeats, of a length that is not a multiple of four.
            let requests: [[Int32]] = [compiled.indices.map(Int32.init), (0..<Int(1 + random.next() % 13)).map { _ in Int32(random.next() % UInt64(compiled.count)) }]
            for positions in requests {
                var answers = [Int32](repeating: -9, count: positions.count)
                positions.withUnsafeBufferPointer { positions in
                    answers.withUnsafeMutableBufferPointer { group.variantIndices(forID: id, at: positions, into: $0.baseAddress!) }
                }
                #expect(answers == positions.map { Int32(compiled[Int($0)].variantIndex(forID: id)) }, "\(id)")
                for (answer, position) in zip(answers, positions) {
                    #expect(compiled[Int(position)].names[Int(answer)] == compiled[Int(position)].decide(for: Subject(userID: id, deviceID: id)).variant)
                }
            }
            var all = [Int32](repeating: -9, count: compiled.count)
            var bytes = Array(id.utf8)
            bytes.withUnsafeMutableBufferPointer { bytes in
                all.withUnsafeMutableBufferPointer { group.variantIndices(forUTF8: UnsafeBufferPointer(bytes), into: $0.baseAddress!) }
            }
            #expect(all == compiled.map { Int32($0.variantIndex(forID: id)) }, "\(id)")
        }
    }

    @Test(arguments: experiments.indices)
    func bucketAnswerTableEqualsTheSegmentsForEveryBucket(_ which: Int) {
        let compiled = CompiledExperiment(Self.experiments[which].1)
        let expected = (0..<Weight.bucketCount).map { compiled.owner(of: $0) >= 0 ? compiled.owner(of: $0) : compiled.controlIndex }
        let table: [Int]? = compiled.withBucketAnswers(forBatchOf: 10_000) { answers in
            answers.map { answers in (0..<Weight.bucketCount).map { Int(answers.byBucket[$0]) } }
        }
        #expect(compiled.withBucketAnswers(forBatchOf: 10_000) { $0?.withoutSubject } == (compiled.isBucketedOnly ? Int32(compiled.controlIndex) : nil))
        #expect(compiled.withBucketAnswers(forBatchOf: 10) { $0 == nil })
        if compiled.isBucketedOnly {
            #expect(table == expected, "\(Self.experiments[which].0)")
        } else {
            #expect(table == nil, "\(Self.experiments[which].0)")
        }
    }
}
