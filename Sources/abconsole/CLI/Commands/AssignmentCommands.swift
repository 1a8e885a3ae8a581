import ExperimentCore
import ExperimentStore
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
        if arguments[CommonOptions.json] {
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
        let snapshot = try context.load()
        // No names: every experiment of the store, as `inspect` does.
        let keys = arguments.arguments("EXP").isEmpty ? snapshot.sortedExperiments.map(\.key) : arguments.arguments("EXP")
        if let source = arguments[Self.subjects] {
            guard arguments[Self.user] == nil, arguments[Self.device] == nil else {
                throw CLIError.usage("--subjects cannot be combined with --user or --device", command: nil)
            }
            let data = try InputFile.read(source, limit: 1 << 30)
            let subjects = try SubjectList(data, source: source)
            try assignBatch(keys, subjects: subjects, snapshot: snapshot, json: arguments[CommonOptions.json], output: context.output)
            return
        }
        let assignment = AssignmentIndex(snapshot).assign(keys, to: try querySubject(arguments))
        if arguments[CommonOptions.json] {
            context.output.line(try SafeOutput.json(assignment, pretty: false))
            return
        }
        for key in keys where assignment.variants[key] != nil {
            context.output.line("\(key)\t\(assignment.variants[key] ?? "")")
        }
        if !assignment.unknown.isEmpty { context.output.line("unknown: \(assignment.unknown.map(SafeOutput.text).joined(separator: " "))") }
    }

    /// One answer per subject, each subject used as both user id and device id.
    ///
    /// Works on the input's bytes: only the experiments asked for are compiled, each id is hashed
    /// once for all of them, and each JSON line is assembled from fragments made up front.
    private static func assignBatch(_ keys: [String], subjects: SubjectList, snapshot: StoreSnapshot, json: Bool, output: OutputBuffer) throws {
        var seen = Set<String>()
        let unique = keys.filter { seen.insert($0).inserted }
        let known = unique.compactMap { key in snapshot.experiments[key].map { (key, CompiledExperiment($0)) } }.sorted { $0.0 < $1.0 }
        let unknown = unique.filter { snapshot.experiments[$0] == nil }
        let group = ExperimentGroup(known.map(\.1))
        var answers = [Int32](repeating: 0, count: max(known.count, 1))
        if !json {
            output.line((["SUBJECT"] + known.map(\.0)).joined(separator: "\t"))
            subjects.forEach { id in
                answers.withUnsafeMutableBufferPointer { group.variantIndices(forUTF8: id, into: $0.baseAddress!) }
                let subject = String(decoding: id, as: UTF8.self)
                output.line(([SafeOutput.text(subject)] + known.indices.map { known[$0].1.names[Int(answers[$0])] }).joined(separator: "\t"))
            }
            if !unknown.isEmpty { output.line("unknown: \(unknown.map(SafeOutput.text).joined(separator: " "))") }
            return
        }
        // `{"subject":` + `"id"` (or `null` for a blank line) + `,"unknown":[…],"variants":{` + one fragment per experiment + `}}\n`
        let head = Array(#"{"subject":"#.utf8)
        let middle = Array(#","unknown":["#.utf8) + Array(unknown.map(ByteWriter.quoted).joined(separator: [UInt8(ascii: ",")]))
            + Array(#"],"variants":{"#.utf8)
        // `"key":"variant"` for every (experiment, variant), back to back; `fragmentEnds[first[e] + v]` ends one.
        var fragmentBytes: [UInt8] = []
        var fragmentEnds: [Int] = []
        var first: [Int] = []
        for (offset, entry) in known.enumerated() {
            first.append(fragmentEnds.count)
            for name in entry.1.names {
                fragmentBytes += (offset == 0 ? [] : [UInt8(ascii: ",")]) + ByteWriter.quoted(entry.0) + [UInt8(ascii: ":")] + ByteWriter.quoted(name)
                fragmentEnds.append(fragmentBytes.count)
            }
        }
        let tail = Array("}}\n".utf8)
        var writer = ByteWriter(chunk: 1 << 20) { output.write(bytes: $0) }
        fragmentBytes.withUnsafeBufferPointer { fragments in
            answers.withUnsafeMutableBufferPointer { answers in
                subjects.forEach { id in
                    group.variantIndices(forUTF8: id, into: answers.baseAddress!)
                    writer.append(head)
                    if id.isEmpty { writer.append("null") } else { writer.appendQuoted(utf8: id) }
                    writer.append(middle)
                    for experiment in first.indices {
                        let fragment = first[experiment] + Int(answers[experiment])
                        let start = fragment == 0 ? 0 : fragmentEnds[fragment - 1]
                        writer.append(UnsafeBufferPointer(rebasing: fragments[start..<fragmentEnds[fragment]]))
                    }
                    writer.append(tail)
                }
            }
        }
        writer.flush()
    }

    /// The `--user` / `--device` ids, each checked against the subject id rules.
    private static func querySubject(_ arguments: ParsedArguments) throws -> Subject {
        for id in [arguments[Self.user], arguments[Self.device]].compactMap({ $0 }) {
            let shown = SafeOutput.text(String(String.UnicodeScalarView(id.unicodeScalars.prefix(80))))
            guard Identifier.isValidSubject(id) else { throw ExperimentError.invalidSubject(shown) }
            guard !Identifier.hasOuterWhitespace(id) else { throw ExperimentError.subjectWithOuterWhitespace(shown) }
        }
        return Subject(userID: arguments[Self.user], deviceID: arguments[Self.device])
    }
}

/// The subject ids of a batch: one per line (LF or CRLF), every id checked first.
///
/// Every line gets an answer, in order: a blank line is a missing subject (answered like an empty
/// id, `control`, with subject `null` in JSON). A leading byte order mark is dropped; one anywhere
/// else is an invisible character, and refused.
///
/// Kept as byte ranges of the input: a million ids need no million `String`s.
struct SubjectList {
    private let data: Data
    /// Start and end offset of each id, in input order.
    private var ranges: [(start: Int, end: Int)] = []

    init(_ data: Data, source: String) throws {
        self.data = data
        guard SubjectList.isUTF8(data) else { throw CLIError.data("\(SafeOutput.text(source)) is not UTF-8 text") }
        var ranges: [(start: Int, end: Int)] = []
        try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = raw.bindMemory(to: UInt8.self)
            var lineStart = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            var lineNumber = 0
            // The text after the last line break is a line only when it is not empty.
            while lineStart < bytes.count {
                lineNumber += 1
                var lineEnd = lineStart
                while lineEnd < bytes.count, bytes[lineEnd] != 0x0A { lineEnd += 1 }
                var end = lineEnd
                if end > lineStart, bytes[end - 1] == 0x0D { end -= 1 }
                let id = UnsafeBufferPointer(rebasing: bytes[lineStart..<end])
                guard id.isEmpty || SubjectList.isValid(id) else {
                    let text = String(decoding: id, as: UTF8.self)
                    throw CLIError.data("\(SafeOutput.text(source)) line \(lineNumber): subject id `\(SafeOutput.text(String(text.prefix(80))))` is not valid; use 1–256 characters without control characters")
                }
                guard !SubjectList.hasOuterWhitespace(id) else {
                    let text = String(decoding: id, as: UTF8.self)
                    throw CLIError.data("\(SafeOutput.text(source)) line \(lineNumber): \(ExperimentError.subjectWithOuterWhitespace(SafeOutput.text(String(text.prefix(80)))).message)")
                }
                ranges.append((lineStart, end))
                lineStart = lineEnd + 1
            }
        }
        self.ranges = ranges
    }

    /// Calls `body` with each id's bytes, in order.
    func forEach(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = raw.bindMemory(to: UInt8.self)
            for range in ranges { body(UnsafeBufferPointer(rebasing: bytes[range.start..<range.end])) }
        }
    }

    /// `Identifier.isValidSubject` on bytes: printable ASCII up to 256 bytes is decided here, anything else by the rule itself.
    private static func isValid(_ id: UnsafeBufferPointer<UInt8>) -> Bool {
        if id.count <= Identifier.maxSubjectLength, id.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return true }
        return Identifier.isValidSubject(String(decoding: id, as: UTF8.self))
    }

    /// `Identifier.hasOuterWhitespace` on bytes: an ASCII space at either end is decided here, non-ASCII ends by the rule itself.
    private static func hasOuterWhitespace(_ id: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = id.first, let last = id.last else { return false }
        if first == 0x20 || last == 0x20 { return true }
        guard first >= 0x80 || last >= 0x80 else { return false }
        return Identifier.hasOuterWhitespace(String(decoding: id, as: UTF8.self))
    }

    /// Whether `data` is valid UTF-8 (ASCII checked eight bytes at a time).
    private static func isUTF8(_ data: Data) -> Bool {
        let isASCII = data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Bool in
            var index = 0
            var high: UInt64 = 0
            while index + 8 <= raw.count {
                high |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                index += 8
            }
            while index < raw.count {
                high |= UInt64(raw[index])
                index += 1
            }
            return high & 0x8080_8080_8080_8080 == 0
        }
        return isASCII || ValidUTF8.string(data) != nil
    }
}
