extension Variant: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable { case name, weight, ranges, payload }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        let percent = try container.decode(Double.self, forKey: .weight)
        guard let weight = Weight(percent: percent) else {
            throw DecodingError.dataCorruptedError(forKey: .weight, in: container,
                                                   debugDescription: "weight \(percent) must be 0–100 with at most two decimals")
        }
        self.weight = weight
        let pairs = try container.decode([[Int]].self, forKey: .ranges)
        ranges = try pairs.map { pair in
            guard pair.count == 2 else {
                throw DecodingError.dataCorruptedError(forKey: .ranges, in: container, debugDescription: "each range must be [start, end]")
            }
            return BucketRange(pair[0], pair[1])
        }
        payload = try container.decodeIfPresent(JSONValue.self, forKey: .payload).flatMap { $0 == .null ? nil : $0 }
        unknownFields = try decoder.unknownFields(known: Set(CodingKeys.allCases.map(\.rawValue)))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(weight.percent, forKey: .weight)
        try container.encode(ranges.map { [$0.start, $0.end] }, forKey: .ranges)
        try container.encode(payload ?? .null, forKey: .payload)
        try encoder.encodeUnknown(unknownFields)
    }
}

// MARK: - The fast reader (`StoreReader`)

extension StoreReader {
    static func readVariant(_ cursor: inout JSONCursor) -> Variant? {
        var name: String?, weight: Weight?, ranges: [BucketRange]?, payload: JSONValue?
        var unknown: [String: JSONValue] = [:]
        let complete = readObject(&cursor) { cursor, field in
            switch Field(field) {
            case "name": return once(&name, cursor.string())
            case "weight": return once(&weight, cursor.number().flatMap(Weight.init(percent:)))
            case "ranges": return once(&ranges, readArray(&cursor, readRange))
            case "payload": return once(&payload, cursor.value())
            default: return keepUnknown(&unknown, field, &cursor)
            }
        }
        guard complete, let name, let weight, let ranges else { return nil }
        var variant = Variant(name: name, weight: weight, ranges: ranges, payload: payload == .null ? nil : payload)
        variant.unknownFields = unknown
        return variant
    }

    static func readRange(_ cursor: inout JSONCursor) -> BucketRange? {
        guard cursor.consume(UInt8(ascii: "[")), let start = cursor.integer(), cursor.consume(UInt8(ascii: ",")),
              let end = cursor.integer(), cursor.consume(UInt8(ascii: "]")) else { return nil }
        return BucketRange(start, end)
    }
}

// MARK: - Validation (`StoreValidator`)

extension StoreValidator {
    /// Names, weights and ranges: valid, non-overlapping, and each variant's buckets equal to its weight.
    static func variantProblems(_ variants: [Variant], at path: String) -> [StoreProblem] {
        var problems: [StoreProblem] = []
        var seen = Set<String>()
        var owned: [(range: BucketRange, variant: Int)] = []
        for (index, variant) in variants.enumerated() {
            let variantPath = "\(path).variants[\(index)]"
            if !Identifier.isValidName(variant.name) { problems.append(StoreProblem("\(variantPath).name", "`\(variant.name)` breaks the name rule [a-z0-9][a-z0-9_.-]{0,63}")) }
            if !seen.insert(variant.name).inserted { problems.append(StoreProblem("\(variantPath).name", "`\(variant.name)` is used by another variant")) }
            if let levels = variant.payload?.levels, levels > JSONValue.maxLevels {
                problems.append(StoreProblem("\(variantPath).payload", JSONValue.tooDeepMessage(levels: levels)))
            }
            var count = 0
            for (rangeIndex, range) in variant.ranges.enumerated() {
                guard range.start >= 0, range.end <= Weight.bucketCount, range.start < range.end else {
                    problems.append(StoreProblem("\(variantPath).ranges[\(rangeIndex)]", "[\(range.start), \(range.end)) is not a non-empty range within [0, 10000)"))
                    continue
                }
                count += range.count
                owned.append((range, index))
            }
            if count != variant.weight.buckets {
                problems.append(StoreProblem("\(variantPath).ranges", "the ranges hold \(count) buckets but the weight \(variant.weight) % needs \(variant.weight.buckets)"))
            }
        }
        let total = variants.reduce(0) { $0 + $1.weight.buckets }
        if total > Weight.bucketCount {
            problems.append(StoreProblem("\(path).variants", "the weights add up to \(Weight(buckets: total)) %, over 100 %"))
        }
        owned.sort { $0.range.start < $1.range.start }
        for (previous, next) in zip(owned, owned.dropFirst()) where next.range.start < previous.range.end {
            problems.append(StoreProblem("\(path).variants[\(next.variant)].ranges",
                                         "[\(next.range.start), \(next.range.end)) overlaps [\(previous.range.start), \(previous.range.end)) of variant `\(variants[previous.variant].name)`"))
        }
        return problems
    }
}
