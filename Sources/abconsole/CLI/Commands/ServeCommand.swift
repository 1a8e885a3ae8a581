import ExperimentServer
import Foundation
import HTTPServer

/// `serve`: answers apps their variants over OFREP, and takes their exposures (SPEC §13).
///
/// Reads the store (never writes it), watches it for changes, and serves until `SIGTERM`/`SIGINT`.
enum ServeCommand {
    static let defaultListen = "127.0.0.1:7070"

    static let listen = Option("--listen", "HOST:PORT", "the address to listen on (default \(defaultListen); port 0 picks a free one)")
    static let tokens = Option("--tokens", "FILE", "require a token: lines `NAME TOKEN`; re-read on SIGHUP (needed to listen beyond loopback)")
    static let exposures = Option("--exposures", "DIR", "take POST /v1/exposures and /v1/conversions into DIR's daily files")
    static let accessLog = Option("--access-log", "FILE", "append one line per request (time, peer, token name, method, path, status, duration)")
    static let options: [any DeclaredOption] = [listen, tokens, exposures, accessLog]

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let (host, port) = try listenAddress(arguments[listen] ?? defaultListen)
        let tokensPath = arguments[tokens]
        let tokens = try tokensPath.map(readTokens)
        guard tokens != nil || isLoopback(host) else {
            throw CLIError.usage("listening on \(host) without --tokens would serve anyone who can reach it; add --tokens FILE or listen on 127.0.0.1", command: nil)
        }
        let accessLog = try arguments[Self.accessLog].map { path in
            switch AccessLog.open(path) {
            case .success(let log): return log
            case .failure(let problem): throw CLIError(code: .cannotCreate, message: problem.message)
            }
        }
        let store = LiveStore(file: context.store) { say($0) }
        let intake = try arguments[exposures].map { try exposureIntake($0, store: store) }
        store.refresh()
        store.startPolling()
        let handler = ServeHandler(store: store, tokens: tokens, intake: intake, accessLog: accessLog)
        do {
            try HTTPServe.run(HTTPServerConfiguration(host: host, port: port), handler: handler, onReady: { bound in
                let output = OutputBuffer()
                output.line("listening on \(host.contains(":") ? "[\(host)]" : host):\(bound)")
                output.flush()
            }, onHangup: {
                guard let tokensPath else { return say("SIGHUP: no --tokens file to re-read") }
                switch AccessTokens.read(tokensPath) {
                case .success(let new):
                    handler.replaceTokens(new)
                    say("SIGHUP: re-read \(tokensPath)")
                case .failure(let problem):
                    say("SIGHUP: \(problem.message); keeping the tokens read before")
                }
            })
        } catch let error as HTTPServerError {
            switch error {
            case .addressInUse: throw CLIError(code: .tempFailure, message: error.description)
            case .invalidPort, .unknownHost, .addressNotAvailable, .permissionDenied: throw CLIError.usage(error.description, command: nil)
            case .socketFailure: throw CLIError(code: .ioError, message: error.description)
            }
        }
    }

    /// One line on standard error, prefixed as every message of `serve`.
    private static func say(_ text: String) {
        StandardStreams.writeError("abconsole serve: \(text)\n")
    }

    /// `HOST:PORT` (an IPv6 host in brackets, `[::1]:7070`) split and checked.
    static func listenAddress(_ text: String) throws -> (host: String, port: Int) {
        let usage = CLIError.usage("--listen takes HOST:PORT such as 127.0.0.1:7070, not `\(SafeOutput.text(text))`", command: nil)
        guard let colon = text.lastIndex(of: ":") else { throw usage }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else { throw usage }
        return (host, port)
    }

    /// Whether `host` is this machine only: 127.0.0.0/8, `::1` or `localhost`.
    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// The tokens file, or exit 66 (cannot read it) / 64 (malformed) with why.
    private static func readTokens(_ path: String) throws -> AccessTokens {
        switch AccessTokens.read(path) {
        case .success(let tokens): return tokens
        case .failure(let problem): throw CLIError(code: problem.isMissing ? .noInput : .usage, message: problem.message)
        }
    }

    /// The intake of `--exposures DIR`, checking rows against the live store: the directory must exist.
    private static func exposureIntake(_ directory: String, store: LiveStore) throws -> ServeHandler.Intake {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CLIError(code: .noInput, message: "--exposures \(directory) is not a directory; create it first (mkdir -p)")
        }
        let intake = ExposureIntake(directory: URL(fileURLWithPath: directory), store: { store.served?.rows })
        return { conversions, body in intake.accept(conversions ? .conversions : .exposures, body: body) }
    }
}
