import Foundation

/// Finds the integer field that Foundation's decoder reports only as "not valid JSON".
///
/// `JSONDecoder` fails a fraction or an out-of-range number in an `Int` field (`"revision": 4.5`,
/// a bucket bound of `1e20`) as corrupted data at the root, which would send a person hunting
/// for a syntax error; this names the field instead.
enum IntegerFields {
    /// The first integer field of the store whose number is not a whole number an `Int` holds.
    static func firstProblem(in data: Data) -> StoreProblem? {
        guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return nil }
        var fields: [(String, Any?)] = [("$.schema_version", root["schema_version"]), ("$.revision", root["revision"])]
        for (index, experiment) in ((root["experiments"] as? [Any]) ?? []).enumerated() {
            guard let experiment = experiment as? [String: Any] else { continue }
            fields.append(("$.experiments[\(index)].revision", experiment["revision"]))
            for (variantIndex, variant) in ((experiment["variants"] as? [Any]) ?? []).enumerated() {
                let ranges = ((variant as? [String: Any])?["ranges"] as? [Any]) ?? []
                for (rangeIndex, range) in ranges.enumerated() {
                    for (boundIndex, bound) in ((range as? [Any]) ?? []).enumerated() {
                        fields.append(("$.experiments[\(index)].variants[\(variantIndex)].ranges[\(rangeIndex)][\(boundIndex)]", bound))
                    }
                }
            }
        }
        for (path, value) in fields {
            guard let number = value as? NSNumber else { continue }
            let text = number.description
            if Int(text) == nil { return StoreProblem(path, "\(text) is not a whole number from \(Int.min) to \(Int.max)") }
        }
        return nil
    }
}
