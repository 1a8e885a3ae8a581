import ExperimentClient
import ExperimentCore
import Foundation
import Testing

/// The typed API over every path: values, and every fallback to the default, each reported once.
@Suite struct TypedKeyTests {
    static let theme = Fixture.experiment("theme", variants: [
        ("plain", [BucketRange(0, 5000)], .object(["color": .string("#ffffff")])),
        ("broken", [BucketRange(5000, 10000)], .object(["colour": .string("#000000")])),
    ])
    static let split = Fixture.experiment("split", variants: Fixture.half)

    /// A subject in bucket range [0, 5000) and one in [5000, 10000) of `salt`.
    static func subjects(salt: String) -> (low: String, high: String) {
        let compiled = CompiledExperiment(Fixture.experiment(salt, variants: Fixture.half))
        let ids = (0..<1000).map { "user-\($0)" }
        let low = ids.first { compiled.decide(for: Subject(userID: $0)).variant == "a" } ?? ""
        let high = ids.first { compiled.decide(for: Subject(userID: $0)).variant == "b" } ?? ""
        return (low, high)
    }

    @Test func enumFlagAndPayloadValuesComeFromTheDecision() {
        let (low, high) = Self.subjects(salt: "split")
        let rollout = Fixture.experiment("rollout", control: "off", variants: [("off", [BucketRange(0, 5000)], nil), ("on", [BucketRange(5000, 10000)], nil)])
        let data = Fixture.clientData([Self.split, rollout, Self.theme])
        for id in [low, high] {
            let client = ExperimentClient(subject: Subject(userID: id))
            client.replaceSnapshot(with: data)
            let decision = CompiledExperiment(Self.split).decide(for: Subject(userID: id))
            #expect(client.value(for: Split.self).rawValue == decision.variant)
            #expect(client.evaluation(for: Split.self).source == .experiment(.bucketed))
            let flag = CompiledExperiment(rollout).decide(for: Subject(userID: id)).variant
            #expect(client.value(for: Rollout.self) == (flag == "on"))
        }
    }

    @Test func noSnapshotServesDefaultsReportedOnce() {
        let recorder = Recorder()
        let client = ExperimentClient(subject: Subject(userID: "u"), delegate: recorder)
        #expect(client.value(for: Split.self) == .a)
        #expect(client.value(for: Rollout.self) == false)
        #expect(client.value(for: ThemeKey.self) == Theme(color: "default"))
        #expect(client.evaluation(for: Split.self).source == .fallback(.noSnapshot))
        #expect(client.evaluation(for: Split.self).variant == nil)
        #expect(recorder.reports == [.noSnapshot])
    }

    @Test func unknownKeyIsReportedOnceAsKeyNotFound() {
        let recorder = Recorder()
        let client = ExperimentClient(subject: Subject(userID: "u"), delegate: recorder)
        client.replaceSnapshot(with: Fixture.clientData([Self.split]))
        for _ in 0..<3 { #expect(client.value(for: Missing.self) == .x) }
        #expect(client.evaluation(for: Missing.self).source == .fallback(.keyNotFound))
        #expect(recorder.reports == [.keyNotFound(key: "not_in_snapshot")])
    }

    @Test func unknownVariantNameServesTheDefault() {
        let recorder = Recorder()
        let renamed = Fixture.experiment("split", variants: [("a", [BucketRange(0, 5000)], nil), ("c", [BucketRange(5000, 10000)], nil)])
        let (_, high) = Self.subjects(salt: "split")
        let client = ExperimentClient(subject: Subject(userID: high), delegate: recorder)
        client.replaceSnapshot(with: Fixture.clientData([renamed]))
        #expect(client.value(for: Split.self) == .a)
        #expect(client.evaluation(for: Split.self).source == .fallback(.unknownVariant))
        _ = client.value(for: Split.self)
        #expect(recorder.reports == [.unknownVariant(key: "split", variant: "c")])
    }

    @Test func flagMapsOnOffAndTheControlAndRefusesOtherNames() {
        let recorder = Recorder()
        let client = ExperimentClient(subject: Subject(userID: "u"), delegate: recorder)
        for (variant, control, expected) in [("on", "x", true), ("enabled", "x", true), ("off", "x", false), ("disabled", "x", false), ("x", "x", false)] {
            let names = control == variant ? [variant] : [variant, control]
            let experiment = Fixture.experiment("rollout", control: control,
                                                variants: names.map { ($0, $0 == variant ? [BucketRange(0, 10000)] : [], nil) })
            client.replaceSnapshot(with: Fixture.clientData([experiment]))
            #expect(client.value(for: Rollout.self) == expected, "\(variant)")
        }
        let odd = Fixture.experiment("rollout", control: "x", variants: [("banner", [BucketRange(0, 10000)], nil), ("x", [], nil)])
        client.replaceSnapshot(with: Fixture.clientData([odd]))
        #expect(client.value(for: Rollout.self) == false)
        #expect(recorder.reports.contains(.unknownVariant(key: "rollout", variant: "banner")))
    }

    @Test func undecodablePayloadServesTheDefaultAndSaysWhy() {
        let (low, high) = Self.subjects(salt: "theme")
        let recorder = Recorder()
        let client = ExperimentClient(subject: Subject(userID: low), delegate: recorder)
        client.replaceSnapshot(with: Fixture.clientData([Self.theme]))
        #expect(client.value(for: ThemeKey.self) == Theme(color: "#ffffff"))
        client.setSubject(Subject(userID: high))
        #expect(client.value(for: ThemeKey.self) == Theme(color: "default"))
        #expect(client.evaluation(for: ThemeKey.self).source == .fallback(.undecodablePayload))
        guard case .undecodablePayload(let key, let variant, let reason)? = recorder.reports.last else {
            Issue.record("no payload report: \(recorder.reports)")
            return
        }
        #expect(key == "theme" && variant == "broken")
        #expect(reason.contains("color"), "\(reason)")
        // A variant without any payload is an incorrect value too.
        let bare = Fixture.experiment("theme", variants: [("plain", [BucketRange(0, 10000)], nil)])
        client.replaceSnapshot(with: Fixture.clientData([bare]))
        #expect(client.value(for: ThemeKey.self) == Theme(color: "default"))
        #expect(recorder.reports.contains(.undecodablePayload(key: "theme", variant: "plain", reason: "the variant has no payload")))
    }

    @Test func overridesBeatEveryRuleAndAreReported() {
        let recorder = Recorder()
        let resolved = Fixture.experiment("split", status: .resolved, winner: "b", variants: Fixture.half)
        let client = ExperimentClient(subject: Subject(userID: "u"), delegate: recorder)
        client.replaceSnapshot(with: Fixture.clientData([resolved, Self.theme]))
        #expect(client.value(for: Split.self) == .b)
        client.setOverride("a", for: Split.self)
        #expect(client.value(for: Split.self) == .a)
        #expect(client.evaluation(for: Split.self).source == .override)
        #expect(recorder.reports == [.overridden(key: "split", variant: "a")])
        // Overrides work for keys missing from the snapshot, and before any snapshot.
        client.setOverride("x", for: Missing.self)
        #expect(client.evaluation(for: Missing.self).source == .override)
        let fresh = ExperimentClient(subject: Subject(userID: "u"))
        fresh.setOverride("b", forKey: "split")
        #expect(fresh.value(for: Split.self) == .b)
        // An override to a variant the key cannot map falls back like any bad value.
        client.setOverride("zzz", for: Split.self)
        #expect(client.value(for: Split.self) == .a)
        #expect(recorder.reports.contains(.unknownVariant(key: "split", variant: "zzz")))
        client.setOverride(nil, for: Split.self)
        #expect(client.value(for: Split.self) == .b)
        #expect(client.overrides == ["not_in_snapshot": "x"])
        client.removeAllOverrides()
        #expect(client.overrides.isEmpty)
    }

    @Test func everyDecisionRowMatchesTheCore() {
        let experiments = [
            Fixture.experiment("split", variants: Fixture.half, whitelist: ["vip": "b"]),
            Fixture.experiment("resolved_one", status: .resolved, winner: "b", variants: Fixture.half),
            Fixture.experiment("paused_one", status: .paused, control: "b", variants: Fixture.half),
            Fixture.experiment("draft_one", status: .draft, variants: Fixture.half, whitelist: ["vip": "b"]),
            Fixture.experiment("partial", type: .device, variants: [("a", [BucketRange(0, 100)], nil), ("b", [BucketRange(9000, 10000)], nil)]),
        ]
        let data = Fixture.clientData(experiments)
        let subjects = [Subject(), Subject(userID: "vip"), Subject(userID: "vip", deviceID: "d-1"), Subject(deviceID: "d-2")]
            + (0..<200).map { Subject(userID: "user-\($0)", deviceID: "device-\($0)") }
        for subject in subjects {
            let client = ExperimentClient(subject: subject)
            client.replaceSnapshot(with: data)
            for experiment in experiments {
                let decision = CompiledExperiment(experiment).decide(for: subject)
                let evaluation = client.evaluation(forKey: experiment.key)
                #expect(evaluation.variant == decision.variant && evaluation.source == .experiment(decision.reason), "\(experiment.key) \(subject)")
            }
        }
    }

    @Test func invalidSubjectIDsCountAsMissingAndAreReported() {
        let recorder = Recorder()
        let client = ExperimentClient(subject: Subject(userID: "bad\u{7}id"), delegate: recorder)
        client.replaceSnapshot(with: Fixture.clientData([Self.split]))
        #expect(client.evaluation(for: Split.self).source == .experiment(.noSubject))
        #expect(recorder.reports == [.invalidSubjectID("bad\u{7}id")])
        #expect(client.subject.userID == nil)
    }
}

