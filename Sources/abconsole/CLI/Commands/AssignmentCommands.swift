import ExperimentCore
import Foundation

/// `inspect` (every detail of a decision) and `assign` (what a client is told), single or batch.
enum AssignmentCommands {
    static func inspect(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let snapshot = try context.load()
        let subject = try querySubject(arguments)
        let keys = arguments.arguments("EXP").isEmpty ? snapshot.sortedExperiments.map(\.key) : arguments.arguments("EXP")
        let index = AssignmentIndex(snapshot)
        let decisions = try keys.map { key in
            guard let decision = index.decide(key, for: subject) else { throw ExperimentError.unknownExperiment(key) }
            return decision
        }
        if arguments.flag("--json") {
            context.output.line(try SafeOutput.json(decisions.map(JSONShapes.DecisionJSON.init)))
            return
        }
        let rows = decisions.map { decision in
            [decision.experiment, decision.type.rawValue, decision.subject ?? "-", decision.bucket.map(String.init) ?? "-",
             decision.variant, decision.reason.rawValue]
        }
        SafeOutput.table(["EXPERIMENT", "TYPE", "SUBJECT", "BUCKET", "VARIANT", "REASON"], rows).forEach(context.output.line)
    }

    static func assign(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let keys = arguments.arguments("EXP")
        let index = AssignmentIndex(try context.load())
        if let source = arguments.option("--subjects") {
            guard arguments.option("--user") == nil, arguments.option("--device") == nil else {
                throw CLIError.usage("--subjects cannot be combined with --user or --device", command: nil)
            }
            try assignBatch(keys, subjects: SubjectList.read(source), index: index, json: arguments.flag("--json"), output: context.output)
            return
        }
        let assignment = index.assign(keys, to: try querySubject(arguments))
        if arguments.flag("--json") {
            context.output.line(try SafeOutput.json(assignment, pretty: false))
            return
        }
        for key in keys where assignment.variants[key] != nil {
            context.output.line("\(key)\t\(assignment.variants[key] ?? "")")
        }
        if !assignment.unknown.isEmpty { context.output.line("unknown: \(assignment.unknown.map(SafeOutput.text).joined(separator: " "))") }
    }

    /// One answer per subject, each subject used as both user id and device id.
    private static func assignBatch(_ keys: [String], subjects: [String], index: AssignmentIndex, json: Bool, output: OutputBuffer) throws {
        var seen = Set<String>()
        let unique = keys.filter { seen.insert($0).inserted }
        let known = unique.compactMap { key in index.experiments[key].map { (key, $0) } }.sorted { $0.0 < $1.0 }
        let unknown = unique.filter { index.experiments[$0] == nil }
        let unknownJSON = "[" + unknown.map(JSONText.quoted).joined(separator: ",") + "]"
        if !json { output.line((["SUBJECT"] + known.map(\.0)).joined(separator: "\t")) }
        for subject in subjects {
            let who = Subject(userID: subject, deviceID: subject)
            if json {
                output.write("{\"subject\":")
                output.write(JSONText.quoted(subject))
                output.write(",\"unknown\":\(unknownJSON),\"variants\":{")
                for (offset, (key, experiment)) in known.enumerated() {
                    output.write(offset == 0 ? "" : ",")
                    output.write(JSONText.quoted(key))
                    output.write(":")
                    output.write(JSONText.quoted(experiment.decide(for: who).variant))
                }
                output.line("}}")
            } else {
                output.line(([SafeOutput.text(subject)] + known.map { $0.1.decide(for: who).variant }).joined(separator: "\t"))
            }
        }
    }

    /// The `--user` / `--device` ids, each checked against the subject id rules.
    private static func querySubject(_ arguments: ParsedArguments) throws -> Subject {
        for id in [arguments.option("--user"), arguments.option("--device")].compactMap({ $0 }) where !Identifier.isValidSubject(id) {
            throw ExperimentError.invalidSubject(SafeOutput.text(id))
        }
        return Subject(userID: arguments.option("--user"), deviceID: arguments.option("--device"))
    }
}

/// The subject ids of a batch: one per line, blank lines skipped, every id checked first.
enum SubjectList {
    static func read(_ source: String) throws -> [String] {
        let data = try InputFile.read(source)
        guard let text = String(validating: data, as: UTF8.self) else {
            throw CLIError.data("\(SafeOutput.text(source)) is not UTF-8 text")
        }
        var subjects: [String] = []
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let id = line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
            if id.isEmpty { continue }
            guard Identifier.isValidSubject(id) else {
                throw CLIError.data("\(SafeOutput.text(source)) line \(lineNumber): subject id `\(SafeOutput.text(String(id.prefix(80))))` is not valid; use 1–256 characters without control characters")
            }
            subjects.append(id)
        }
        return subjects
    }
}

/// Hand-written JSON string literals for the batch hot path (same escaping as JSONEncoder).
enum JSONText {
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
