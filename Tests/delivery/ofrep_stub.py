#!/usr/bin/env python3
"""A stand-in for `abconsole serve` in the client library's tests: the two endpoints the library calls.

    python3 Tests/delivery/ofrep_stub.py ROOT

Binds 127.0.0.1 only, on a free port, and prints `PORT` as its first line. Files under ROOT steer it:

    ROOT/bulk.json    the body of `POST /ofrep/v1/evaluate/flags`, sent as it is, with a strong
                      `ETag` (SHA-256 of the bytes); a matching `If-None-Match` gets `304`
    ROOT/status       when present, a number: every request is answered with that status instead
    ROOT/requests.jsonl  written: one line per request, {"method","path","authorization","if_none_match","body"}
    ROOT/exposures.jsonl written: each row `POST /v1/exposures` accepted, one a line

`POST /v1/exposures` takes a JSON array of rows; a row whose `experiment` is `unknown_experiment`
is rejected, the rest appended. Answers `{"accepted":N,"rejected":[{"index","reason"}]}` as serve does.
Ends on SIGTERM or SIGINT.
"""

import hashlib
import http.server
import json
import os
import signal
import sys
import threading

LOCK = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    root = "."

    def log_message(self, format, *args):
        pass

    def answer(self, status: int, body: bytes = b"", headers: dict | None = None) -> None:
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def file(self, name: str) -> str:
        return os.path.join(self.root, name)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        with LOCK, open(self.file("requests.jsonl"), "a") as log:
            log.write(json.dumps({"method": "POST", "path": self.path, "authorization": self.headers.get("Authorization"),
                                  "if_none_match": self.headers.get("If-None-Match"),
                                  "body": body.decode("utf-8", "replace")}) + "\n")
        if os.path.exists(self.file("status")):
            with open(self.file("status")) as handle:
                status = int(handle.read().strip())
            return self.answer(status, json.dumps({"errorDetails": "told to fail"}).encode(), {"Content-Type": "application/json"})
        if self.path == "/ofrep/v1/evaluate/flags":
            with open(self.file("bulk.json"), "rb") as handle:
                answer = handle.read()
            etag = '"' + hashlib.sha256(answer).hexdigest() + '"'
            if self.headers.get("If-None-Match") == etag:
                return self.answer(304, b"", {"ETag": etag})
            return self.answer(200, answer, {"ETag": etag, "Content-Type": "application/json"})
        if self.path == "/v1/exposures":
            rows = json.loads(body)
            rejected = [{"index": index, "reason": "unknown experiment"} for index, row in enumerate(rows)
                        if row.get("experiment") == "unknown_experiment"]
            refused = {entry["index"] for entry in rejected}
            with LOCK, open(self.file("exposures.jsonl"), "a") as log:
                for index, row in enumerate(rows):
                    if index not in refused:
                        log.write(json.dumps(row, sort_keys=True) + "\n")
            reply = {"accepted": len(rows) - len(rejected), "rejected": rejected}
            return self.answer(200, json.dumps(reply).encode(), {"Content-Type": "application/json"})
        self.answer(404, b'{"errorDetails":"no such endpoint"}', {"Content-Type": "application/json"})


def main() -> int:
    if len(sys.argv) != 2:
        sys.stderr.write("usage: ofrep_stub.py ROOT\n")
        return 64
    Handler.root = sys.argv[1]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    print(server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except (KeyboardInterrupt, SystemExit):
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
