#!/usr/bin/env python3
"""Two `abconsole serve` replicas behind nginx on loopback, as docs/serving.md deploys them.

Each replica has its own copy of the sample store (as each machine has its own clone). Through
nginx, every bulk evaluation must equal replica A's own answer, body and ETag alike, whichever
replica answered; an `If-None-Match` with a tag from one replica gets 304 from either. Then
replica B stops (SIGTERM, exit 0) and every request through nginx still succeeds.

    python3 Tests/serve/replicas.py --bin .build/debug/abconsole [--requests 300]

Needs nginx (Debian's nginx-light). The last line is always `replicas: N passed, M failed`.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "..", "..", "sample-data", "experiments.json")


def post(url: str, body: bytes, headers: dict[str, str] | None = None) -> tuple[int, str, bytes]:
    request = urllib.request.Request(url + "/ofrep/v1/evaluate/flags", data=body, method="POST",
                                     headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers.get("ETag", ""), response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("ETag", ""), error.read()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_replica(binary: str, store: str) -> tuple[subprocess.Popen, int]:
    process = subprocess.Popen([binary, "--store", store, "serve", "--listen", "127.0.0.1:0"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = process.stdout.readline().strip() if process.stdout else ""
    if not line.startswith("listening on 127.0.0.1:"):
        process.kill()
        raise SystemExit(f"a replica did not start: {line!r}")
    return process, int(line.rsplit(":", 1)[1])


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/debug/abconsole")
    parser.add_argument("--requests", type=int, default=300)
    args = parser.parse_args()
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)
    if nginx is None:
        print("replicas: needs nginx (apt-get install nginx-light)", file=sys.stderr)
        return 2
    binary = os.path.abspath(args.bin)
    passed = failed = 0

    def check(ok: bool, what: str) -> None:
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
            if failed <= 20:
                print(f"FAIL {what}", file=sys.stderr)

    directory = tempfile.mkdtemp(prefix="replicas-")
    replicas: list[subprocess.Popen] = []
    proxy = None
    try:
        ports = []
        for name in ("a", "b"):
            store = os.path.join(directory, f"{name}.json")
            shutil.copy(SAMPLE, store)
            process, port = start_replica(binary, store)
            replicas.append(process)
            ports.append(port)
        front = free_port()
        servers = "\n".join(f"        server 127.0.0.1:{port} max_fails=1 fail_timeout=5s;" for port in ports)
        with open(os.path.join(directory, "nginx.conf"), "w") as handle:
            handle.write(f"""
worker_processes 1;
pid {directory}/nginx.pid;
error_log {directory}/error.log;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {directory}/body;
    proxy_temp_path {directory}/proxy;
    upstream abconsole {{
{servers}
        keepalive 16;
    }}
    server {{
        listen 127.0.0.1:{front};
        location / {{
            proxy_pass http://abconsole;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_next_upstream error timeout http_503;
        }}
    }}
}}
""")
        proxy = subprocess.Popen([nginx, "-p", directory, "-c", os.path.join(directory, "nginx.conf"), "-g", "daemon off;"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        url = f"http://127.0.0.1:{front}"
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", front), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        direct = f"http://127.0.0.1:{ports[0]}"
        rng = random.Random(30)
        bodies = [f'{{"context":{{"userId":"u{rng.randrange(10**6)}","deviceId":"d{rng.randrange(10**6)}"}}}}'.encode()
                  for _ in range(args.requests)]
        for body in bodies:
            via, mine = post(url, body), post(direct, body)
            check(via[0] == 200 and via == mine, f"nginx and replica A answer alike for {body!r}: {via[:2]} vs {mine[:2]}")
            check(post(url, body, {"If-None-Match": mine[1]})[0] == 304, f"304 through nginx for {body!r}")
        replicas[1].send_signal(signal.SIGTERM)
        check(replicas[1].wait(timeout=10) == 0, "replica B exits 0 on SIGTERM")
        for body in bodies[: max(20, args.requests // 5)]:
            via = post(url, body)
            check(via[0] == 200 and via == post(direct, body), "nginx answers with replica B stopped")
    finally:
        if proxy is not None:
            proxy.send_signal(signal.SIGQUIT)
            try:
                proxy.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proxy.kill()
        for process in replicas:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                process.wait(timeout=10)
        shutil.rmtree(directory, ignore_errors=True)
    print(f"replicas: {passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
