import Foundation

/// libFuzzer entry for subject ids as the CLI reads them (`--subjects` lines, `--user`, CSV subjects).
///
/// Each line (a leading BOM dropped, CR LF or LF) that `Identifier.isValidSubject` accepts must hold
/// no control or invisible character and at most 256 scalars; and the batch kernel must answer it
/// exactly as `decide(for:)` does, for an experiment of each status.
@_cdecl("LLVMFuzzerTestOneInput")
public func subjectsFuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    var bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
    for var line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
        if line.last == 0x0D { line = line.dropLast() }
        guard let id = String(validating: line, as: UTF8.self), Identifier.isValidSubject(id) else { continue }
        let scalars = id.unicodeScalars
        if scalars.contains(where: { Identifier.isControl($0) || Identifier.isInvisible($0) }) { fatalError("an invisible or control character was accepted") }
        if scalars.count > Identifier.maxSubjectLength { fatalError("\(scalars.count) scalars were accepted") }
        var answers = [Int32](repeating: -1, count: Fixtures.group.experiments.count)
        Array(line).withUnsafeBufferPointer { utf8 in answers.withUnsafeMutableBufferPointer { Fixtures.group.variantIndices(forUTF8: utf8, into: $0.baseAddress!) } }
        for (index, experiment) in Fixtures.group.experiments.enumerated() {
            let decided = experiment.decide(for: Subject(userID: id, deviceID: id)).variant
            if experiment.names[Int(answers[index])] != decided { fatalError("batch and decide(for:) disagree on \(id.debugDescription)") }
        }
    }
    return 0
}

/// One compiled experiment of each status, with a whitelist, for the kernel check.
enum Fixtures {
    static let group: ExperimentGroup = {
        let context = ChangeContext(operatorName: "fuzz", now: Date(timeIntervalSince1970: 1_772_359_200))
        var snapshot = StoreSnapshot()
        for (key, steps) in [("d", [Change]()), ("r", [.start(experiment: "r")]), ("p", [.start(experiment: "p"), .pause(experiment: "p")]),
                             ("z", [.start(experiment: "z"), .resolve(experiment: "z", winner: "b")])] {
            let draft = ExperimentDraft(key: key, type: .user, variants: [(name: "a", weight: Weight(buckets: 3000)), (name: "b", weight: Weight(buckets: 5000))])
            _ = try? snapshot.apply(.create(draft), context: context)
            _ = try? snapshot.apply(.whitelistAdd(experiment: key, subject: "user-1", variant: "b", note: ""), context: context)
            for step in steps { _ = try? snapshot.apply(step, context: context) }
        }
        return ExperimentGroup(snapshot.sortedExperiments.map(CompiledExperiment.init))
    }()
}
