import ExperimentCore
import ExperimentStore
import ExperimentTestSupport
import Foundation

/// Scenario 2: full decisions (status, whitelist, bucket) against a store of many experiments and
/// a million whitelist entries.
enum DecisionScenario {
    static func run(_ options: Options, store: BigStoreData) {
        Report.section("2. Full decision: status + whitelist + bucket, \(store.snapshot.experiments.count) experiments, \(store.whitelistTotal) whitelist entries")
        var compiled: [CompiledExperiment] = []
        let compile = Timing.of { compiled = store.snapshot.sortedExperiments.map(CompiledExperiment.init) }
        Report.figure("compile every experiment (filters included)", compile.cpu * 1000, "ms", detail: "once per store version")
        // Requests: one subject asks ten random experiments (a page's worth); in one request out of ten
        // the subject is whitelisted in the first experiment it asks.
        var random = SplitMix64(seed: 7)
        let perRequest = 10
        let requests = max(1, options.decisions / perRequest)
        let queryCount = requests * perRequest
        let pool = store.pool
        let experimentCount = compiled.count
        var experimentOf = [Int32](repeating: 0, count: queryCount)
        var requestSubjects = [String](repeating: "", count: requests)
        var listed = 0
        var listedRequests: [Int] = []
        for request in 0..<requests {
            for slot in 0..<perRequest {
                experimentOf[request * perRequest + slot] = Int32(random.next() % UInt64(experimentCount))
            }
            if random.next() % 10 == 0 {
                requestSubjects[request] = store.whitelisted(experiment: Int(experimentOf[request * perRequest]), pick: Int(random.next() % 1_000_000))
                listed += 1
                listedRequests.append(request)
            } else {
                requestSubjects[request] = pool[Int(random.next() % UInt64(pool.count))]
            }
        }
        let subjects = (0..<queryCount).map { requestSubjects[$0 / perRequest] }
        let types = compiled.map(\.type)
        var answers = [Int32](repeating: 0, count: queryCount)
        var times: [Double] = []
        for _ in 0..<options.runs {
            times.append(Timing.of {
                compiled.withUnsafeBufferPointer { experiments in
                    for request in 0..<requests {
                        let subject = requestSubjects[request]
                        for query in request * perRequest..<(request + 1) * perRequest {
                            answers[query] = Int32(experiments[Int(experimentOf[query])].variantIndex(forID: subject))
                        }
                    }
                }
            }.cpu)
        }
        Report.figure("decisions, [CompiledExperiment][e].variantIndex(forID:)", Double(queryCount) / median(times) / 1e6, "M/s",
                      target: .atLeast(20), detail: "\(requests) requests × \(perRequest) random experiments; \(listed) requests whitelisted")
        let group = ExperimentGroup(compiled)
        var groupAnswers = [Int32](repeating: 0, count: queryCount)
        var groupTimes: [Double] = []
        for _ in 0..<options.runs {
            groupTimes.append(Timing.of {
                for request in 0..<requests {
                    let subject = requestSubjects[request]
                    for query in request * perRequest..<(request + 1) * perRequest {
                        groupAnswers[query] = Int32(group.variantIndex(at: Int(experimentOf[query]), forID: subject))
                    }
                }
            }.cpu)
        }
        Report.figure("decisions, ExperimentGroup.variantIndex(at:forID:)", Double(queryCount) / median(groupTimes) / 1e6, "M/s",
                      target: .atLeast(20), detail: "same queries")
        Report.check(groupAnswers == answers, "ExperimentGroup answers equal CompiledExperiment's")
        var requestAnswers = [Int32](repeating: 0, count: queryCount)
        var requestTimes: [Double] = []
        for _ in 0..<options.runs {
            requestTimes.append(Timing.of {
                experimentOf.withUnsafeBufferPointer { positions in
                    requestAnswers.withUnsafeMutableBufferPointer { out in
                        for request in 0..<requests {
                            group.variantIndices(forID: requestSubjects[request],
                                                 at: UnsafeBufferPointer(rebasing: positions[request * perRequest..<(request + 1) * perRequest]),
                                                 into: out.baseAddress! + request * perRequest)
                        }
                    }
                }
            }.cpu)
        }
        Report.figure("decisions, per request: ExperimentGroup.variantIndices", Double(queryCount) / median(requestTimes) / 1e6, "M/s",
                      target: .atLeast(20), detail: "one call per request of \(perRequest)")
        Report.check(requestAnswers == answers, "per-request answers equal CompiledExperiment's")
        // The keyed client API: one request asks ten experiments by key.
        let index = AssignmentIndex(store.snapshot)
        let keys = compiled.map(\.key)
        var keyedTimes: [Double] = []
        let asked = (0..<requests).map { request in (0..<perRequest).map { keys[Int(experimentOf[request * perRequest + $0])] } }
        for _ in 0..<options.runs {
            keyedTimes.append(Timing.of {
                for request in 0..<requests {
                    let subject = requestSubjects[request]
                    blackHole(index.assign(asked[request], to: Subject(userID: subject, deviceID: subject)))
                }
            }.cpu)
        }
        Report.figure("decisions via AssignmentIndex.assign (10 keys)", Double(queryCount) / median(keyedTimes) / 1e6, "M/s",
                      detail: "informative: includes key lookups and the [String: String] answer")
        var mismatches = 0
        for query in stride(from: 0, to: queryCount, by: max(1, queryCount / 5000)) {
            let experiment = compiled[Int(experimentOf[query])]
            let subject = types[Int(experimentOf[query])] == .user ? Subject(userID: subjects[query]) : Subject(deviceID: subjects[query])
            if experiment.names[Int(answers[query])] != experiment.decide(for: subject).variant { mismatches += 1 }
        }
        Report.check(mismatches == 0, "\(min(queryCount, 5000)) sampled fast answers equal CompiledExperiment.decide(for:) (\(mismatches) mismatches)")
        // Every whitelisted request's first answer (the whitelist-table path) against decide(for:), which reads the dictionary.
        var listedChecked = 0, listedMismatches = 0
        for request in listedRequests {
            let query = request * perRequest
            let experiment = compiled[Int(experimentOf[query])]
            let subject = types[Int(experimentOf[query])] == .user ? Subject(userID: subjects[query]) : Subject(deviceID: subjects[query])
            let decision = experiment.decide(for: subject)
            guard decision.reason == .whitelisted else { continue }
            listedChecked += 1
            if experiment.names[Int(answers[query])] != decision.variant || answers[query] != requestAnswers[query] { listedMismatches += 1 }
        }
        Report.check(listedMismatches == 0,
                     "\(listedChecked) whitelisted answers (variantIndex(forID:) and per request) equal decide(for:) (\(listedMismatches) mismatches)")
    }
}
