extension JSONValue.ParseError {
    /// What to tell a person whose payload `text` was refused (the console's forms and the CLI say the same).
    public func message(for text: String) -> String {
        switch self {
        case .invalid: ExperimentError.invalidPayload("`\(text.prefix(80))`").message
        case .tooDeep(let levels): ExperimentError.payloadTooDeep(levels: levels).message
        case .number(let problem): "the payload cannot be kept exactly: \(problem)"
        case .repeatedKey:
            "the payload repeats a key in one object (keys equal as Unicode text, such as `é` and `e` + U+0301, count as one); one value would be lost"
        }
    }
}
