/// The command line of `client-example`.
struct ExampleOptions {
    var snapshot = ""
    var user: String?
    var device: String?
    var exposures: String?
    var show: [String] = []
    var help = false

    struct UsageError: Error { let message: String }

    init(_ arguments: [String], known: Set<String>) throws(UsageError) {
        var rest = arguments[...]
        var snapshot: String?
        func value(_ name: String) throws(UsageError) -> String {
            guard let value = rest.popFirst() else { throw UsageError(message: "\(name) needs a value") }
            return value
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--snapshot": snapshot = try value(argument)
            case "--user": user = try value(argument)
            case "--device": device = try value(argument)
            case "--exposures": exposures = try value(argument)
            case "--show":
                let key = try value(argument)
                guard known.contains(key) else { throw UsageError(message: "--show: no typed key `\(key)` (known: \(known.sorted().joined(separator: ", ")))") }
                show.append(key)
            case "-h", "--help":
                help = true
                return
            default: throw UsageError(message: "unknown argument `\(argument)`")
            }
        }
        guard let snapshot else { throw UsageError(message: "--snapshot FILE is required") }
        self.snapshot = snapshot
        if !show.isEmpty, exposures == nil { throw UsageError(message: "--show needs --exposures FILE to log to") }
    }
}
