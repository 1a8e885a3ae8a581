import ExperimentCore
import ExperimentStore
import Foundation

/// Scenario 6: the GrowthBook Python SDK's hash-v2 evaluation on the same subjects, if it is installed.
enum PeerScenario {
    static let script = """
    import sys, time
    from growthbook import GrowthBook, Experiment
    subjects = open(sys.argv[1]).read().split("\\n")[:-1]
    experiment = Experiment(key="bench_peer", variations=["control", "treatment"], weights=[0.5, 0.5], hashVersion=2, seed=sys.argv[2])
    gb = GrowthBook(attributes={"id": ""})
    answers = []
    start = time.perf_counter()
    for subject in subjects:
        gb.set_attributes({"id": subject})
        answers.append(gb.run(experiment).variationId)
    elapsed = time.perf_counter() - start
    print(elapsed)
    print("".join(str(a) for a in answers))
    """

    static func run(_ options: Options, directory: String) {
        Report.section("6. Peer: GrowthBook Python SDK, hash v2")
        guard let python = which("python3"), spawn(python, ["-c", "import growthbook"]).status == 0 else {
            Report.note("skipped: `python3 -c \"import growthbook\"` fails (pip install growthbook to compare)")
            return
        }
        let ids = Fixtures.subjects(.short, count: 20_000, seed: 9)
        let subjectsPath = directory + "/peer-subjects.txt"
        _ = FileManager.default.createFile(atPath: subjectsPath, contents: Data((ids.joined(separator: "\n") + "\n").utf8))
        let salt = "bench_peer_seed"
        guard let output = capture(python, ["-c", script, subjectsPath, salt], in: directory) else {
            Report.check(false, "the GrowthBook script runs")
            return
        }
        let lines = output.split(separator: "\n")
        guard lines.count == 2, let seconds = Double(lines[0]) else {
            Report.check(false, "the GrowthBook script prints its time and answers")
            return
        }
        let experiment = CompiledExperiment(Fixtures.experiment("bench_peer", status: .running,
                                                                variants: [("control", 5000), ("treatment", 5000)], salt: salt))
        var answers = [Int32](repeating: 0, count: ids.count)
        var times: [Double] = []
        for _ in 0..<options.runs {
            times.append(Timing.of { answers.withUnsafeMutableBufferPointer { experiment.variantIndices(forIDs: ids, into: $0) } }.cpu)
        }
        let theirs = Double(ids.count) / seconds, ours = Double(ids.count) / median(times)
        Report.figure("GrowthBook Python gb.run (hash v2)", theirs / 1e6, "M/s", detail: "\(ids.count) subjects")
        Report.figure("abconsole ExperimentCore, same subjects", ours / 1e6, "M/s",
                      ratio: Ratio(value: ours / theirs, label: "speed-up over GrowthBook Python"))
        Report.check(answers.map(String.init).joined() == String(lines[1]), "GrowthBook assigns every subject the same variant")
    }
}
