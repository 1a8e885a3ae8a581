import ExperimentClient
import Foundation

/// The command line of `client-example`.
struct ExampleOptions {
    var snapshot = ""
    /// `--snapshot-url`: fetch through `refresh(from:)` instead of reading `snapshot`.
    var snapshotURL: URL?
    /// `--server`: ask this `abconsole serve` through `refresh(fromServer:context:)`, with `--token`.
    var server: URL?
    var token: String?
    /// `--post-exposures`: send exposures to the server's `/v1/exposures`.
    var postExposures = false
    /// Seconds between fetches (`--refresh-every`), and how long to keep fetching (`--for`); one fetch without them.
    var refreshEvery: Double?
    var runFor: Double?
    /// `--timeout`: each fetch's deadline in seconds; `--max-bytes`: the largest body kept.
    var timeout: Double = 30
    var maxBytes = ExperimentClient.defaultMaxSnapshotBytes
    var user: String?
    var device: String?
    var exposures: String?
    var show: [String] = []
    var help = false

    struct UsageError: Error { let message: String }

    init(_ arguments: [String], known: Set<String>) throws(UsageError) {
        var rest = arguments[...]
        var snapshot: String?
        var fetchOption: String?
        func value(_ name: String) throws(UsageError) -> String {
            guard let value = rest.popFirst() else { throw UsageError(message: "\(name) needs a value") }
            return value
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--snapshot": snapshot = try value(argument)
            case "--snapshot-url":
                let text = try value(argument)
                guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
                    throw UsageError(message: "--snapshot-url needs an http:// or https:// URL, not `\(text)`")
                }
                snapshotURL = url
            case "--refresh-every", "--for":
                let text = try value(argument)
                guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
                    throw UsageError(message: "\(argument) needs a number of seconds above 0, not `\(text)`")
                }
                if argument == "--for" { runFor = seconds } else { refreshEvery = seconds }
            case "--timeout":
                let text = try value(argument)
                guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
                    throw UsageError(message: "--timeout needs a number of seconds above 0, not `\(text)`")
                }
                timeout = seconds
                fetchOption = argument
            case "--max-bytes":
                let text = try value(argument)
                guard let bytes = Int(text), bytes > 0 else { throw UsageError(message: "--max-bytes needs a whole number of bytes above 0, not `\(text)`") }
                maxBytes = bytes
                fetchOption = argument
            case "--server":
                let text = try value(argument)
                guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
                    throw UsageError(message: "--server needs an http:// or https:// URL, not `\(text)`")
                }
                server = url
            case "--token": token = try value(argument)
            case "--post-exposures": postExposures = true
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
        if server != nil {
            guard snapshot == nil, snapshotURL == nil else { throw UsageError(message: "--server excludes --snapshot and --snapshot-url") }
            guard refreshEvery == nil, runFor == nil else { throw UsageError(message: "--refresh-every and --for need --snapshot-url") }
            if postExposures, exposures != nil { throw UsageError(message: "--post-exposures and --exposures exclude each other") }
            if !show.isEmpty, exposures == nil, !postExposures { throw UsageError(message: "--show needs --exposures FILE or --post-exposures") }
            return
        }
        if token != nil || postExposures { throw UsageError(message: "\(token != nil ? "--token" : "--post-exposures") needs --server") }
        switch (snapshot, snapshotURL) {
        case (nil, nil): throw UsageError(message: "--snapshot FILE, --snapshot-url URL or --server URL is required")
        case (.some, .some): throw UsageError(message: "--snapshot and --snapshot-url exclude each other")
        case (let snapshot?, nil):
            guard refreshEvery == nil, runFor == nil else { throw UsageError(message: "--refresh-every and --for need --snapshot-url") }
            if let fetchOption { throw UsageError(message: "\(fetchOption) needs --snapshot-url") }
            self.snapshot = snapshot
        case (nil, .some):
            break
        }
        if !show.isEmpty, exposures == nil { throw UsageError(message: "--show needs --exposures FILE to log to") }
    }
}
