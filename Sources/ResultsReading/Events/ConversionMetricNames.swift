/// The metric names a conversions log holds (SPEC §8's `metric` field): what `set-metrics`'s completion offers.
package enum ConversionMetricNames {
    /// The distinct names in the first `rowLimit` rows of the log at `path` (a file, or a directory's
    /// `conversions-*` logs in name order), sorted; a malformed row ends the reading with what was read.
    package static func read(path: String, rowLimit: Int) throws(EventError) -> [String] {
        var names = Set<[UInt8]>()
        var rows = 0
        for file in try EventSources.files([path], prefix: EventSources.conversionsPrefix) where rows < rowLimit {
            let log = try EventLog(path: file, fields: ["metric"], required: [true])
            let values = FieldValues(path: file)
            do {
                try log.forEachRow(progress: nil, partialLastLine: true) { (fields, line) throws(EventError) in
                    names.insert(Array(try values.text(fields[0], line: line, field: "metric")))
                    rows += 1
                    if rows >= rowLimit { throw .cancelled }
                }
            } catch .cancelled, .malformed {
                // Enough rows, or a row that does not read: the names so far.
                break
            }
        }
        return names.map { String(decoding: $0, as: UTF8.self) }.sorted()
    }
}
