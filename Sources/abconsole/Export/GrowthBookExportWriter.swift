import ExperimentCore
import ExperimentStore

/// `export --format growthbook` written byte by byte: `{"dateUpdated":T,"features":{KEY:{"defaultValue":V,
/// "rules":[…]}}}` as compact JSON with keys in byte order, HTML-safe, and a final newline (SPEC §9).
///
/// The rules are `GrowthBookExport.rules`; each whitelist rule's `$in` list is written from
/// `entries` as it goes, so a million whitelisted ids never sit in memory as values. The entries
/// are read once first for which variants whitelist anyone and for the warnings.
struct GrowthBookExportWriter {
    /// Sorted by key, as bytes.
    private let experiments: [Experiment]
    private let values: GrowthBookExport.Values
    private let dateUpdated: String?
    private let entries: ExportEntries
    /// By experiment, in `experiments`' order: the variants (by index) that whitelist a subject.
    private let listed: [Set<Int>]
    /// What `export` prints on standard error: experiments whose salt or whitelisted ids are not ASCII.
    let warnings: [String]

    /// The payload of `experiments` of `snapshot` serving `values`; a partial `--values payloads` is refused.
    init(_ snapshot: StoreSnapshot, experiments: [Experiment], values: GrowthBookExport.Values, entries: ExportEntries) throws {
        try GrowthBookExport.refusePartialPayloads(experiments, values: values)
        var listed: [String: Set<Int>] = [:], warnings: [String] = []
        for experiment in experiments {
            let (variants, nonASCII) = try Self.listing(experiment, entries)
            listed[experiment.key] = variants
            if let warning = GrowthBookExport.warning(experiment, nonASCIIIDs: nonASCII) { warnings.append(warning) }
        }
        self.experiments = experiments.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        self.listed = self.experiments.map { listed[$0.key] ?? [] }
        self.values = values
        self.entries = entries
        self.warnings = warnings
        dateUpdated = GrowthBookExport.lastChange(snapshot)
    }

    /// Writes the whole payload.
    func write(into writer: inout ByteWriter) throws {
        writer.append(UInt8(ascii: "{"))
        if let dateUpdated {
            writer.append("\"dateUpdated\":")
            writer.appendHTMLSafeQuoted(dateUpdated)
            writer.append(UInt8(ascii: ","))
        }
        writer.append("\"features\":{")
        for (index, experiment) in experiments.enumerated() {
            if index > 0 { writer.append(UInt8(ascii: ",")) }
            writer.appendHTMLSafeQuoted(experiment.key)
            writer.append(":{\"defaultValue\":")
            let value = Value(experiment, payloads: GrowthBookExport.servesPayloads(experiment, values: values))
            value.write(experiment.control, into: &writer)
            writer.append(",\"rules\":[")
            let rules = GrowthBookExport.rules(experiment, listed: listed[index].contains)
            for (number, rule) in rules.enumerated() {
                if number > 0 { writer.append(UInt8(ascii: ",")) }
                try write(rule, of: experiment, value, into: &writer)
            }
            writer.append("]}")
        }
        writer.append("}}\n")
    }

    private func write(_ rule: GrowthBookExport.Rule, of experiment: Experiment, _ value: Value, into writer: inout ByteWriter) throws {
        switch rule {
        case .force(let name):
            writer.append("{\"force\":")
            value.write(name, into: &writer)
        case .whitelisted(let variant):
            writer.append("{\"condition\":{")
            writer.appendHTMLSafeQuoted(GrowthBookExport.hashAttribute(experiment.type))
            writer.append(":{\"$in\":[")
            let name = Array(experiment.variants[variant].name.utf8)
            var first = true
            try entries.forEach(in: experiment) { subject, variant in
                guard variant.same(as: name) else { return }
                if !first { writer.append(UInt8(ascii: ",")) }
                writer.appendHTMLSafeQuoted(utf8: subject)
                first = false
            }
            writer.append("]}},\"force\":")
            value.write(experiment.variants[variant].name, into: &writer)
        case .experiment(let owned):
            writer.append("{\"disableStickyBucketing\":true,\"hashAttribute\":")
            writer.appendHTMLSafeQuoted(GrowthBookExport.hashAttribute(experiment.type))
            writer.append(",\"hashVersion\":2,\"key\":")
            writer.appendHTMLSafeQuoted(experiment.key)
            writer.append(",\"meta\":[")
            for (index, piece) in owned.enumerated() {
                writer.append(index > 0 ? ",{\"key\":" : "{\"key\":")
                writer.appendHTMLSafeQuoted(piece.variant)
                writer.append(UInt8(ascii: "}"))
            }
            writer.append("],\"ranges\":[")
            for (index, piece) in owned.enumerated() {
                writer.append(index > 0 ? ",[" : "[")
                writer.append(utf8: GrowthBookExport.bound(piece.range.start).literal)
                writer.append(UInt8(ascii: ","))
                writer.append(utf8: GrowthBookExport.bound(piece.range.end).literal)
                writer.append(UInt8(ascii: "]"))
            }
            writer.append("],\"seed\":")
            writer.appendHTMLSafeQuoted(experiment.salt)
            writer.append(",\"variations\":[")
            for (index, piece) in owned.enumerated() {
                if index > 0 { writer.append(UInt8(ascii: ",")) }
                value.write(piece.variant, into: &writer)
            }
            writer.append(UInt8(ascii: "]"))
        }
        writer.append(UInt8(ascii: "}"))
    }

    /// What a variation of one experiment is written as: its name, or its payload.
    private struct Value {
        let experiment: Experiment
        let payloads: Bool

        init(_ experiment: Experiment, payloads: Bool) {
            self.experiment = experiment
            self.payloads = payloads
        }

        func write(_ name: String, into writer: inout ByteWriter) {
            if payloads { writer.appendHTMLSafe(experiment.variant(named: name)?.payload ?? .null) } else { writer.appendHTMLSafeQuoted(name) }
        }
    }

    /// Which of `experiment`'s variants whitelist a subject, and how many of its ids are not ASCII.
    private static func listing(_ experiment: Experiment, _ entries: ExportEntries) throws -> (Set<Int>, Int) {
        let names = experiment.variants.map { Array($0.name.utf8) }
        var listed = Set<Int>(), nonASCII = 0
        try entries.forEach(in: experiment) { subject, variant in
            if let index = names.firstIndex(where: { variant.same(as: $0) }) { listed.insert(index) }
            if subject.contains(where: { $0 >= 0x80 }) { nonASCII += 1 }
        }
        return (listed, nonASCII)
    }
}
