import Foundation

/// An experiment's `plan` object as JSON (SPEC §14), one shape for the file, `show --json` and
/// both readers: `{"hold_seconds", "last_decision": {"action", "at", "reason"} or null,
/// "min_subjects", "on_guardrail", "on_srm", "started_from": {NAME: PCT} or null, "state", "step",
/// "steps": [{"weights": {NAME: PCT}}]}`; the store writes it on one line, keys in byte order.

extension RolloutPlan {
    static let knownFields: Set<String> = ["hold_seconds", "last_decision", "min_subjects", "on_guardrail", "on_srm",
                                           "started_from", "state", "step", "steps"]

    /// The plan as a JSON value, unknown fields included.
    public var jsonValue: JSONValue {
        var object = unknownFields
        object["hold_seconds"] = .number(JSONNumber(integerLiteral: holdSeconds))
        object["last_decision"] = lastDecision.map { decision in
            .object(["action": .string(decision.action), "at": .string(UTCTimestamp.string(decision.at)), "reason": .string(decision.reason)])
        } ?? .null
        object["min_subjects"] = .number(JSONNumber(integerLiteral: minSubjects))
        object["on_guardrail"] = .string(onGuardrail.rawValue)
        object["on_srm"] = .string(onSRM.rawValue)
        object["started_from"] = startedFrom.map(Self.weightsValue) ?? .null
        object["state"] = .string(state.rawValue)
        object["step"] = .number(JSONNumber(integerLiteral: step))
        object["steps"] = .array(steps.map { .object(["weights": Self.weightsValue($0)]) })
        return .object(object)
    }

    /// The plan a JSON value holds; nil when it is not shaped as one (the validator judges its rules).
    public init?(json: JSONValue) {
        guard case .object(let object) = json,
              case .number(let hold)? = object["hold_seconds"], let holdSeconds = Self.integer(hold),
              case .number(let min)? = object["min_subjects"], let minSubjects = Self.integer(min),
              case .string(let guardrail)? = object["on_guardrail"], let onGuardrail = Reaction(rawValue: guardrail),
              case .string(let srm)? = object["on_srm"], let onSRM = Reaction(rawValue: srm),
              case .string(let stateText)? = object["state"], let state = State(rawValue: stateText),
              case .number(let stepNumber)? = object["step"], let step = Self.integer(stepNumber),
              case .array(let stepValues)? = object["steps"] else { return nil }
        var steps: [[String: Weight]] = []
        for value in stepValues {
            guard case .object(let stepObject) = value, stepObject.count == 1, let weightsValue = stepObject["weights"],
                  let weights = Self.weights(weightsValue) else { return nil }
            steps.append(weights)
        }
        self.init(steps: steps, holdSeconds: holdSeconds, minSubjects: minSubjects, onGuardrail: onGuardrail, onSRM: onSRM)
        self.step = step
        self.state = state
        switch object["started_from"] {
        case nil, .null?: startedFrom = nil
        case let value?:
            guard let weights = Self.weights(value) else { return nil }
            startedFrom = weights
        }
        switch object["last_decision"] {
        case nil, .null?: lastDecision = nil
        case .object(let decision)?:
            guard decision.count == 3, case .string(let action)? = decision["action"], case .string(let reason)? = decision["reason"],
                  case .string(let atText)? = decision["at"], let at = Self.date(atText) else { return nil }
            lastDecision = Decision(at: at, action: action, reason: reason)
        default: return nil
        }
        unknownFields = object.filter { !Self.knownFields.contains($0.key) }
    }

    /// `{NAME: PCT}`, percentages as the store writes weights (`12.5`).
    static func weightsValue(_ weights: [String: Weight]) -> JSONValue {
        .object(weights.mapValues { weight in .number(JSONNumber(literal: weight.description) ?? JSONNumber(integerLiteral: 0)) })
    }

    private static func weights(_ value: JSONValue) -> [String: Weight]? {
        guard case .object(let members) = value else { return nil }
        var weights: [String: Weight] = [:]
        for (name, member) in members {
            guard case .number(let number) = member, let weight = Weight(percent: number.doubleValue) else { return nil }
            weights[name] = weight
        }
        return weights
    }

    private static func integer(_ number: JSONNumber) -> Int? {
        guard number.literal.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "-") }),
              number.literal.count <= 15 else { return nil }
        return Int(number.literal)
    }

    /// A date in the store's one form, `2026-01-31T09:30:00Z`.
    private static func date(_ text: String) -> Date? {
        var bytes = Array(text.utf8)
        let seconds = bytes.withUnsafeMutableBufferPointer { StoreDate.seconds(parsing: UnsafeBufferPointer($0)) }
        return seconds.map { Date(timeIntervalSince1970: Double($0)) }
    }
}

extension StoreReader {
    /// An experiment's `plan`; nil when it is not shaped as one (then `JSONDecoder` reads the file and explains).
    static func readPlan(_ cursor: inout JSONCursor) -> RolloutPlan? {
        cursor.value().flatMap(RolloutPlan.init(json:))
    }
}
