extension Variant: Codable {
    enum CodingKeys: String, CodingKey { case name, weight, ranges, payload }

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
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(weight.percent, forKey: .weight)
        try container.encode(ranges.map { [$0.start, $0.end] }, forKey: .ranges)
        try container.encode(payload ?? .null, forKey: .payload)
    }
}
