/// The metric names a conversions log holds (SPEC §8's `metric` field): what `set-metrics`'s completion offers.
public enum ConversionMetricNames {
    /// The distinct names in the first `rowLimit` rows of the log at `path`, sorted; a malformed row ends the reading with what was read.
    public static func read(path: String, rowLimit: Int) throws(EventError) -> [String] {
        let log = try EventLog(path: path, fields: ["metric"], required: [true])
        let values = FieldValues(path: path)
        var names = Set<[UInt8]>()
        var rows = 0
        do {
            try log.forEachRow(progress: nil, partialLastLine: true) { (fields, line) throws(EventError) in
                names.insert(Array(try values.text(fields[0], line: line, field: "metric")))
                rows += 1
                if rows >= rowLimit { throw .cancelled }
            }
        } catch .cancelled, .malformed {
            // Enough rows, or a row that does not read: the names so far.
        }
        return names.map { String(decoding: $0, as: UTF8.self) }.sorted()
    }
}
