import Foundation

/// Reading a plan's steps as people write them (the `ramp-plan` command and the console's plan form).
extension RolloutPlan {
    /// A STEP's full weights: `control=90,green=10`; with two variants one name alone, the control
    /// taking the rest (`green=10`). A variant not named is refused, unless it is that control;
    /// an unknown name is left for `problems(variants:)` to name.
    public static func weights(ofStep text: String, number: Int, variants: [Variant], control: String) throws(ExperimentError) -> [String: Weight] {
        var weights: [String: Weight] = [:]
        for pair in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let equals = pair.firstIndex(of: "=") else {
                throw .invalidPlan("step \(number): `\(pair)` is not NAME=PCT (e.g. green=10)")
            }
            let name = String(pair[..<equals]), percent = String(pair[pair.index(after: equals)...])
            let weight: Weight
            switch Weight.parse(percent: percent) {
            case .success(let parsed): weight = parsed
            case .failure(let error): throw .invalidWeight(text: percent, reason: error.reason)
            }
            guard weights.updateValue(weight, forKey: name) == nil else { throw .invalidPlan("step \(number) names `\(name)` twice") }
        }
        let names = variants.map(\.name)
        let missing = names.filter { weights[$0] == nil }
        let named = weights.values.reduce(0) { $0 + $1.buckets }
        if missing == [control], variants.count == 2, named <= Weight.bucketCount {
            weights[control] = Weight(buckets: Weight.bucketCount - named)
        } else if let first = missing.first, weights.keys.allSatisfy({ names.contains($0) }) {
            throw .invalidPlan("step \(number) gives no weight for `\(first)`; each step names every variant's weight "
                + "(e.g. \(variants.map { "\($0.name)=\($0.weight)" }.joined(separator: ",")))")
        }
        return weights
    }

    /// Steps separated by spaces (`green=10 green=50 green=100`), each read by `weights(ofStep:…)`.
    public static func steps(_ text: String, variants: [Variant], control: String) throws(ExperimentError) -> [[String: Weight]] {
        var steps: [[String: Weight]] = []
        for (index, word) in text.split(separator: " ").enumerated() {
            steps.append(try weights(ofStep: String(word), number: index + 1, variants: variants, control: control))
        }
        return steps
    }
}

extension RolloutPlan {
    /// A subject count as typed (`2000`): whole digits only; nil otherwise.
    public static func parseSubjectCount(_ text: String) -> Int? {
        guard !text.isEmpty, text.count <= 12, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return Int(text)
    }
}
