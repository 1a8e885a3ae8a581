#!/usr/bin/env python3
"""A static host for exports, as a CDN would serve them, that can also fail on demand.

    python3 Tests/delivery/snapshot_server.py ROOT

Binds 127.0.0.1 only, on a free port, and prints `PORT` as its first line. `GET /PATH` serves the
file ROOT/PATH with a strong `ETag` (the SHA-256 of its bytes) and answers `304` to a matching
`If-None-Match`. A first path segment asks for a failure instead:

    /_timeout/PATH    answers nothing for 30 s
    /_500/PATH        HTTP 500 with a short text body
    /_html/PATH       HTTP 200, an HTML page (a login or error page)
    /_truncated/PATH  HTTP 200 promising the whole file, sending half of it, then closing
    /_loop/PATH       302 to itself, forever
    /_slow/PATH       HTTP 200 promising the whole file, sending one byte a second
    /_gzip/PATH       HTTP 200, the file gzip-compressed (`Content-Encoding: gzip`)
    /_chunked/PATH    HTTP 200, the file in 1000-byte chunks (`Transfer-Encoding: chunked`), gzip-compressed
                      first when the request's `Accept-Encoding` names gzip
    /_redirect/PATH   302 to /PATH
    /_br/PATH         HTTP 200, the file's bytes labelled `Content-Encoding: br` (a coding not asked for)
    /_bomb/N/PATH     HTTP 200, `Content-Encoding: gzip` of N MiB of spaces (made once, a few KiB per
                      MiB on the wire), whatever PATH is

Each request is logged on stderr as `METHOD PATH STATUS`. Ends on SIGTERM or SIGINT.
"""

import gzip
import hashlib
import http.server
import os
import signal
import sys
import time
import zlib


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    root = "."

    def log_message(self, format, *args):  # one line per request, on stderr
        pass

    def answer(self, status: int, body: bytes = b"", headers: dict | None = None, length: int | None = None) -> None:
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body) if length is None else length))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        sys.stderr.write(f"{self.command} {self.path} {status}\n")
        sys.stderr.flush()

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        mode = ""
        for prefix in ("/_timeout/", "/_500/", "/_html/", "/_truncated/", "/_loop/", "/_slow/", "/_gzip/", "/_bomb/",
                       "/_chunked/", "/_redirect/", "/_br/"):
            if path.startswith(prefix):
                mode, path = prefix.strip("/"), "/" + path[len(prefix):]
        if mode == "_timeout":
            time.sleep(30)
            return self.answer(504)
        if mode == "_500":
            return self.answer(500, b"internal error\n", {"Content-Type": "text/plain"})
        if mode == "_html":
            return self.answer(200, b"<!doctype html>\n<html><body>Please sign in</body></html>\n", {"Content-Type": "text/html"})
        if mode == "_loop":
            return self.answer(302, b"", {"Location": self.path})
        if mode == "_redirect":
            return self.answer(302, b"", {"Location": path})
        if mode == "_bomb":
            mebibytes = int(path.strip("/").split("/", 1)[0])
            return self.answer(200, bomb(mebibytes), {"Content-Type": "application/json", "Content-Encoding": "gzip"})
        file = os.path.realpath(os.path.join(self.root, path.lstrip("/")))
        if not file.startswith(os.path.realpath(self.root) + os.sep) or not os.path.isfile(file):
            return self.answer(404, b"not found\n", {"Content-Type": "text/plain"})
        with open(file, "rb") as handle:
            body = handle.read()
        etag = '"' + hashlib.sha256(body).hexdigest() + '"'
        headers = {"ETag": etag, "Content-Type": "application/json", "Cache-Control": "no-cache"}
        if mode == "_truncated":
            self.answer(200, body[: len(body) // 2], headers, length=len(body))
            self.close_connection = True
            return
        if mode == "_slow":
            self.answer(200, b"", headers, length=len(body))
            try:
                for index in range(len(body)):
                    self.wfile.write(body[index:index + 1])
                    self.wfile.flush()
                    time.sleep(1)
            except OSError:  # the client gave up
                pass
            self.close_connection = True
            return
        if mode == "_br":
            return self.answer(200, body, dict(headers, **{"Content-Encoding": "br"}))
        if mode == "_chunked":
            return self.chunked(body, headers)
        if mode == "_gzip":
            return self.answer(200, gzip.compress(body), dict(headers, **{"Content-Encoding": "gzip"}))
        if self.headers.get("If-None-Match") == etag:
            return self.answer(304, b"", {"ETag": etag})
        self.answer(200, body, headers)

    def chunked(self, body: bytes, headers: dict) -> None:
        """The body in 1000-byte chunks, gzip-compressed first when the client takes gzip."""
        if "gzip" in (self.headers.get("Accept-Encoding") or ""):
            body = gzip.compress(body)
            headers = dict(headers, **{"Content-Encoding": "gzip"})
        self.send_response(200)
        for name, value in dict(headers, **{"Transfer-Encoding": "chunked"}).items():
            self.send_header(name, value)
        self.end_headers()
        for start in range(0, len(body), 1000):
            piece = body[start:start + 1000]
            self.wfile.write(b"%x;piece\r\n%s\r\n" % (len(piece), piece))
        self.wfile.write(b"0\r\nX-Trailer: done\r\n\r\n")
        sys.stderr.write(f"{self.command} {self.path} 200\n")
        sys.stderr.flush()


BOMBS: dict[int, bytes] = {}


def bomb(mebibytes: int) -> bytes:
    """gzip of `mebibytes` MiB of spaces, compressed a MiB at a time (never held inflated)."""
    if mebibytes not in BOMBS:
        compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
        chunk = b" " * (1 << 20)
        BOMBS[mebibytes] = b"".join(compressor.compress(chunk) for _ in range(mebibytes)) + compressor.flush()
    return BOMBS[mebibytes]


def main() -> int:
    if len(sys.argv) != 2:
        sys.stderr.write("usage: snapshot_server.py ROOT\n")
        return 64
    Handler.root = sys.argv[1]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    # A parent may start us with signals blocked (the mask is inherited): unblock what ends us.
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
