import ExperimentCore
import ExperimentEditing
import ExperimentStore
import ExperimentTestSupport
import Foundation
import HTTPServer
@testable import ExperimentServer

/// A real store in a temp directory, a live store over it and the handler `serve` uses.
///
/// The store holds one experiment of each kind: `checkout` (user, running, payloads on every
/// variant, `partner-7` whitelisted), `dark_mode` (device, running, no payloads), `old_banner`
/// (resolved), `killswitch` (paused) and `new_thing` (a draft, never served).
final class ServerFixture {
    let directory: TempDirectory
    let file: StoreFile
    let live: LiveStore
    let handler: ServeHandler
    /// What the live store reported, in order.
    let reports = LockedValue<[String]>([])

    init(tokens: AccessTokens? = nil, accessLog: AccessLog? = nil, writeStore: Bool = true) throws {
        directory = try TempDirectory()
        file = StoreFile(path: directory.path("experiments.json"))
        if writeStore { try ServerFixture.populate(file) }
        let reports = reports
        live = LiveStore(path: file.path) { line in reports.withLock { $0.append(line) } }
        live.refresh()
        handler = ServeHandler(store: live, tokens: tokens, intake: nil, accessLog: accessLog)
    }

    deinit { directory.remove() }

    static func populate(_ file: StoreFile) throws {
        let context = Fixture.alice
        let changes: [Change] = [
            .create(Fixture.draft("checkout", [("control", "50"), ("treatment", "50")])),
            .setPayload(experiment: "checkout", variant: "control", payload: JSONValue(parsing: #"{"color":"grey"}"#)),
            .setPayload(experiment: "checkout", variant: "treatment", payload: JSONValue(parsing: #"{"color":"green"}"#)),
            .whitelistAdd(experiment: "checkout", subject: "partner-7", variant: "treatment", note: "partner"),
            .start(experiment: "checkout"),
            .create(Fixture.draft("dark_mode", type: .device, [("off", "30"), ("on", "70")])),
            .setPayload(experiment: "dark_mode", variant: "on", payload: .bool(true)),
            .start(experiment: "dark_mode"),
            .create(Fixture.draft("old_banner", [("control", "50"), ("treatment", "50")])),
            .start(experiment: "old_banner"),
            .resolve(experiment: "old_banner", winner: "treatment"),
            .create(Fixture.draft("killswitch", [("control", "20"), ("fast", "80")])),
            .start(experiment: "killswitch"),
            .pause(experiment: "killswitch"),
            .create(Fixture.draft("new_thing", [("control", "50"), ("shiny", "50")])),
        ]
        for change in changes { _ = try file.apply(change, context: context) }
    }

    /// The answer to `method path` with `body` and `headers`.
    func send(_ method: String, _ path: String, body: String = "", headers: [HTTPHeader] = []) -> HTTPResponse {
        handler.respond(to: HTTPRequest(method: method, target: path, headers: headers, body: Data(body.utf8)))
    }

    /// `POST` of `{"context":…}` to the bulk endpoint.
    func bulk(_ context: String, headers: [HTTPHeader] = []) -> HTTPResponse {
        send("POST", "/ofrep/v1/evaluate/flags", body: #"{"context":\#(context)}"#, headers: headers)
    }
}

extension HTTPResponse {
    /// The body parsed as JSON (nil when it is not).
    var json: Any? { try? JSONSerialization.jsonObject(with: body) }
    var object: [String: Any] { json as? [String: Any] ?? [:] }
    var text: String { String(decoding: body, as: UTF8.self) }

    func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// A JSON string literal of `text`.
func quoted(_ text: String) -> String { JSONValue.string(text).compactText }
