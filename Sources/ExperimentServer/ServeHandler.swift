import ExperimentCore
import Foundation
import HTTPServer

/// What `serve` answers (SPEC §13): routes each request to its endpoint, after the access check.
///
/// | method | path | answer |
/// |---|---|---|
/// | POST | `/ofrep/v1/evaluate/flags/{key}` | one evaluation (`OFREPEvaluation.single`) |
/// | POST | `/ofrep/v1/evaluate/flags` | every served experiment, with an `ETag` (`OFREPEvaluation.bulk`) |
/// | GET | `/ofrep/v1/configuration` | name, polling, value types |
/// | GET | `/healthz` | the store's revision, or 503 while none has loaded (no token needed) |
/// | POST | `/v1/exposures`, `/v1/conversions` | the exposure intake, with `--exposures DIR` (else 404) |
package struct ServeHandler: HTTPHandler {
    /// Takes posted exposure (`conversions` false) or conversion rows: the intake of `--exposures DIR`.
    package typealias Intake = @Sendable (_ conversions: Bool, _ body: Data) -> HTTPResponse

    let store: LiveStore
    /// The tokens every endpoint but `/healthz` requires; nil serves without (loopback only).
    let tokens: LockedValue<AccessTokens?>
    let intake: Intake?
    let accessLog: AccessLog?
    let now: @Sendable () -> Date

    package init(store: LiveStore, tokens: AccessTokens?, intake: Intake?, accessLog: AccessLog?, now: @escaping @Sendable () -> Date = Date.init) {
        self.store = store
        self.tokens = LockedValue(tokens)
        self.intake = intake
        self.accessLog = accessLog
        self.now = now
    }

    /// Replaces the tokens (after `SIGHUP` re-read the file).
    package func replaceTokens(_ new: AccessTokens) {
        tokens.withLock { $0 = new }
    }

    package func respond(to request: HTTPRequest) -> HTTPResponse {
        let started = now()
        let (response, tokenName) = route(request)
        accessLog?.record(at: started, peer: request.peer, tokenName: tokenName, method: request.method, path: request.path,
                          status: response.status, seconds: now().timeIntervalSince(started))
        return response
    }

    /// The answer, and the name of the token the request showed (for the log).
    private func route(_ request: HTTPRequest) -> (HTTPResponse, String?) {
        let path = request.path
        if path == "/healthz" { return (only("GET", request) ?? health(), nil) }
        var tokenName: String?
        if let tokens = tokens.current {
            guard let name = Self.shownToken(request).flatMap(tokens.name(of:)) else {
                return (JSONAnswer.error(401, "this server needs a token: send `Authorization: Bearer TOKEN` or `X-API-Key: TOKEN`",
                                         headers: [HTTPHeader("WWW-Authenticate", "Bearer")]), nil)
            }
            tokenName = name
        }
        return (authorized(request, path: path), tokenName)
    }

    /// The answer to a request that passed the access check.
    private func authorized(_ request: HTTPRequest, path: String) -> HTTPResponse {
        let flagsPrefix = "/ofrep/v1/evaluate/flags"
        switch path {
        case flagsPrefix, flagsPrefix + "/":
            return only("POST", request) ?? evaluate { OFREPEvaluation.bulk(request, in: $0) }
        case "/ofrep/v1/configuration":
            return only("GET", request) ?? OFREPEvaluation.configuration
        case "/v1/exposures", "/v1/conversions":
            if let refusal = only("POST", request) { return refusal }
            guard let intake else {
                return JSONAnswer.error(404, "this server takes no \(path == "/v1/exposures" ? "exposures" : "conversions"); start it with --exposures DIR")
            }
            return intake(path == "/v1/conversions", request.body)
        default:
            guard path.hasPrefix(flagsPrefix + "/") else {
                return JSONAnswer.error(404, "no endpoint \(path); OFREP evaluation is POST \(flagsPrefix)[/KEY]")
            }
            let encoded = String(path.dropFirst(flagsPrefix.count + 1))
            let key = encoded.removingPercentEncoding ?? encoded
            return only("POST", request) ?? evaluate { OFREPEvaluation.single(key: key, request, in: $0) }
        }
    }

    /// `405` with `Allow` unless the request's method is `method`.
    private func only(_ method: String, _ request: HTTPRequest) -> HTTPResponse? {
        guard request.method != method else { return nil }
        return JSONAnswer.error(405, "\(request.path) answers \(method) only", headers: [HTTPHeader("Allow", method)])
    }

    /// `answer` over the good store, or `503` while none has loaded.
    private func evaluate(_ answer: (ServedStore) -> HTTPResponse) -> HTTPResponse {
        guard let served = store.served else { return unavailable() }
        return answer(served)
    }

    private func health() -> HTTPResponse {
        guard let served = store.served else { return unavailable() }
        return JSONAnswer.object(200, ["revision": .number(JSONNumber(literal: String(served.revision)) ?? 0)])
    }

    /// `503` while no store is served; why is on the server's stderr (a store's problems name its contents).
    private func unavailable() -> HTTPResponse {
        JSONAnswer.error(503, "no valid store has loaded yet; the server's log says why, and it answers once one has", code: "GENERAL",
                         headers: [HTTPHeader("Retry-After", "1")])
    }

    /// The token a request shows: `Authorization: Bearer T`, else `X-API-Key: T`.
    static func shownToken(_ request: HTTPRequest) -> String? {
        if let authorization = request.header("Authorization") {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].caseInsensitiveCompare("Bearer") == .orderedSame {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return request.header("X-API-Key")?.trimmingCharacters(in: .whitespaces)
    }
}
