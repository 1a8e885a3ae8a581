/// One connection's state between the socket loop's reads and writes: buffered bytes, the
/// request in progress, the answers waiting to go out, and its clocks. No I/O: the loop feeds it
/// bytes and the time, and sends what `output` holds.
final class HTTPConnection {
    /// Answers waiting to be written past this many bytes stop the reading of pipelined requests.
    static let outputHighWater = 1 << 20

    let peer: String
    /// Received bytes; those before `inputStart` were taken by requests already answered.
    private var input: [UInt8] = []
    private var inputStart = 0
    private var parser: HTTPRequestParser
    /// Bytes to send; `sent` of them are gone.
    private(set) var output: [UInt8] = []
    private(set) var sent = 0
    /// When the first byte of the request now arriving came (`nil` between requests).
    private(set) var requestStartedAt: Double?
    /// When the connection last finished a request or was opened, or the last write progressed.
    private(set) var lastActivity: Double
    /// No more requests are read: close once `output` is sent.
    private(set) var closeAfterOutput = false
    /// The server is stopping: finish the request in progress, keep nothing alive.
    private(set) var stopping = false
    private var sentContinue = false

    init(peer: String, now: Double, limits: HTTPLimits) {
        self.peer = peer
        self.lastActivity = now
        self.parser = HTTPRequestParser(limits: limits, peer: peer)
    }

    /// Bytes received and not yet taken by a request.
    var hasInput: Bool { inputStart < input.count }

    var hasOutput: Bool { sent < output.count }

    /// Whether the loop should read more: not while answers wait to go out or once closing.
    var wantsInput: Bool { !closeAfterOutput && !hasOutput }

    /// Bytes just read from the socket.
    func received(_ bytes: UnsafeRawBufferPointer, now: Double) {
        if requestStartedAt == nil, !bytes.isEmpty { requestStartedAt = now }
        if inputStart == input.count {
            input.removeAll(keepingCapacity: input.capacity <= 64 * 1024)
            inputStart = 0
        } else if inputStart >= 64 * 1024 {
            input.removeFirst(inputStart)
            inputStart = 0
        }
        input.append(contentsOf: bytes)
    }

    /// Answers every whole request in `input` (pipelined ones in order) through `handler`;
    /// says whether it answered any.
    @discardableResult
    func process(handler: some HTTPHandler, limits: HTTPLimits, date: String, now: Double) -> Bool {
        var answered = false
        while !closeAfterOutput, output.count - sent < Self.outputHighWater {
            let start = inputStart
            let result = input.withUnsafeBufferPointer { parser.next(UnsafeBufferPointer(rebasing: $0[start...])) }
            switch result {
            case .incomplete(let headComplete, let expectsContinue):
                if headComplete, expectsContinue, !sentContinue {
                    output.append(contentsOf: HTTPResponseWriter.continueLine)
                    sentContinue = true
                }
                if !hasInput { requestStartedAt = nil }
                return answered
            case .failure(let error):
                answerAndClose(HTTPErrorAnswer.response(for: error, limits: limits), date: date)
                return true
            case .request(let parsed):
                inputStart += parsed.consumed
                let response = handler.respond(to: parsed.request)
                let keepAlive = parsed.keepAlive && !stopping
                HTTPResponseWriter.append(response, to: &output, date: date, keepAlive: keepAlive, headOnly: parsed.request.method == "HEAD")
                sentContinue = false
                lastActivity = now
                requestStartedAt = hasInput ? now : nil
                if !keepAlive { closeAfterOutput = true }
                answered = true
            }
        }
        return answered
    }

    /// `count` bytes of `output` went out.
    func wrote(_ count: Int, now: Double) {
        sent += count
        lastActivity = now
        if sent == output.count {
            output.removeAll(keepingCapacity: output.capacity <= 64 * 1024)
            sent = 0
        }
    }

    /// Calls `body` with the bytes still to send.
    func withPendingOutput<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        output.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[sent...])) }
    }

    /// The server stops: no new request after the one in progress. Returns whether the
    /// connection can close now (nothing in progress, nothing to send).
    func stop() -> Bool {
        stopping = true
        return isIdleForStop
    }

    /// What the clocks say at `now`.
    enum Expiry: Equatable { case none, answerTimeout, close }

    /// A request past its deadline gets `408`; an idle connection or a client that stops reading is closed.
    func expiry(now: Double, limits: HTTPLimits) -> Expiry {
        if hasOutput { return now - lastActivity >= limits.requestDeadline ? .close : .none }
        if closeAfterOutput { return .none }
        if let started = requestStartedAt { return now - started >= limits.requestDeadline ? .answerTimeout : .none }
        return now - lastActivity >= limits.idleTimeout ? .close : .none
    }

    /// Queues `response` with `Connection: close` and reads nothing more.
    func answerAndClose(_ response: HTTPResponse, date: String) {
        HTTPResponseWriter.append(response, to: &output, date: date, keepAlive: false)
        closeAfterOutput = true
        dropInput()
    }

    private func dropInput() {
        input.removeAll()
        inputStart = 0
        requestStartedAt = nil
    }

    /// The peer closed its side: what is buffered can no longer become a request; send what is answered, then close.
    func peerClosed() {
        closeAfterOutput = true
        dropInput()
    }

    /// Nothing left to do once the server stops: no request in progress, nothing to send.
    var isIdleForStop: Bool { stopping && !hasInput && !hasOutput }
}
