import ExperimentCore

extension Overlay {
    /// The experiment the overlay changes, if any.
    var experimentKey: String? {
        switch self {
        case .ramp(let value): value.experimentKey
        case .confirm(let value): value.change.experimentKey
        case .resolve(let value): value.experimentKey
        case .whitelistAdd(let value): value.experimentKey
        case .importCSV(let value): value.experimentKey
        case .newExperiment: nil
        case .variant(let value): value.experimentKey
        case .textEdit(let value): value.experimentKey
        case .conflicts: nil
        case .metrics(let value): value.experimentKey
        case .plan(let value): value.experimentKey
        }
    }

    /// Hands a key to the form or confirmation; it changes itself and answers.
    mutating func handle(_ key: Key, _ intent: Intent?, _ context: ScreenContext) -> ScreenReply {
        switch self {
        case .ramp(var value):
            defer { self = .ramp(value) }
            return value.handle(key, intent, context)
        case .confirm(let value):
            return value.handle(intent, context)
        case .resolve(var value):
            defer { self = .resolve(value) }
            return value.handle(key, intent, context)
        case .whitelistAdd(var value):
            defer { self = .whitelistAdd(value) }
            return value.handle(key, intent, context)
        case .importCSV(var value):
            defer { self = .importCSV(value) }
            return value.handle(key, intent, context)
        case .newExperiment(var value):
            defer { self = .newExperiment(value) }
            return value.handle(key, intent, context)
        case .variant(var value):
            defer { self = .variant(value) }
            return value.handle(key, intent, context)
        case .textEdit(var value):
            defer { self = .textEdit(value) }
            return value.handle(key, intent, context)
        case .conflicts(var value):
            defer { self = .conflicts(value) }
            return value.handle(key, intent, context)
        case .metrics(var value):
            defer { self = .metrics(value) }
            return value.handle(key, intent, context)
        case .plan(var value):
            defer { self = .plan(value) }
            return value.handle(key, intent, context)
        }
    }
}
