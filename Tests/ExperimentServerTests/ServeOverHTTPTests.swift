import Foundation
import Testing
@testable import ExperimentServer
@testable import HTTPServer

/// `ServeHandler` behind the real HTTP server, asked with curl: the pieces `serve` joins fit.
@Suite struct ServeOverHTTPTests {
    @Test func healthAndBulkEvaluationAnswerOverASocket() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let store = LiveStore(path: root.appendingPathComponent("sample-data/experiments.json").path) { _ in }
        store.refresh()
        let handler = ServeHandler(store: store, tokens: nil, intake: nil, accessLog: nil)
        let control = HTTPServerControl()
        let ready = DispatchSemaphore(value: 0)
        let returned = DispatchSemaphore(value: 0)
        let port = PortValue()
        Thread {
            try? HTTPServe.run(HTTPServerConfiguration(host: "127.0.0.1", port: 0), handler: handler, control: control) { port.set($0); ready.signal() }
            returned.signal()
        }.start()
        ready.wait()
        defer {
            control.stop()
            _ = returned.wait(timeout: .now() + 10)
        }
        let health = try curl(["http://127.0.0.1:\(port.get())/healthz"])
        #expect(health.contains("\"revision\""))
        let bulk = try curl(["-X", "POST", "--data-binary", "{\"context\":{\"targetingKey\":\"user-42\"}}", "http://127.0.0.1:\(port.get())/ofrep/v1/evaluate/flags"])
        #expect(bulk.hasPrefix("{\"flags\":["))
    }

    func curl(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-sS", "--max-time", "20"] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}

/// The bound port, shared with the server's thread.
final class PortValue: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func set(_ port: Int) { lock.lock(); value = port; lock.unlock() }
    func get() -> Int { lock.lock(); defer { lock.unlock() }; return value }
}
