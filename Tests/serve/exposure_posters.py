#!/usr/bin/env python3
"""Concurrent exposure posters against the real `abconsole serve --exposures DIR`, then `results`.

Several threads post exposures (JSON arrays and JSON Lines, each post with one row naming a
variant the experiment lacks) and conversions to `/v1/exposures` and `/v1/conversions` at once,
each over its own keep-alive connection. Every answer must accept exactly the valid rows and name
the bad one by index; a body that is not JSON is 400 with `errorDetails` and writes nothing. After
`serve` stops (SIGTERM, exit 0) the day files hold every accepted row exactly once, each line
whole JSON, and `abconsole results EXP --exposures DIR --conversions DIR` counts exactly the
subjects and conversions that were accepted.

    python3 Tests/serve/exposure_posters.py --bin .build/debug/abconsole [--posters 8] [--posts 20] [--rows 25]

The last line is always `exposure posters: N passed, M failed`; exit 0 only when M == 0.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "..", "..", "sample-data", "experiments.json")
EXPERIMENT = "account_add_funds"


class Report:
    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0
        self.lock = threading.Lock()

    def check(self, ok: bool, what) -> bool:
        with self.lock:
            if ok:
                self.passed += 1
            else:
                self.failed += 1
                if self.failed <= 20:
                    print(f"FAIL: {what() if callable(what) else what}", file=sys.stderr)
        return ok

    def finish(self) -> int:
        print(f"exposure posters: {self.passed} passed, {self.failed} failed")
        return 0 if self.failed == 0 else 1


def post(connection: http.client.HTTPConnection, path: str, body: bytes) -> tuple[int, dict]:
    connection.request("POST", path, body=body, headers={"Content-Type": "application/json"})
    response = connection.getresponse()
    data = response.read()
    try:
        return response.status, json.loads(data)
    except ValueError:
        return response.status, {"unparsed": data.decode(errors="replace")}


def exposure(subject: str, variant: str) -> dict:
    return {"timestamp": "2026-07-01T10:00:00Z", "experiment": EXPERIMENT, "variant": variant, "subject": subject}


def conversion(subject: str) -> dict:
    return {"timestamp": "2026-07-01T11:00:00.5Z", "subject": subject, "metric": "poster_buy"}


def body_of(rows: list[dict], as_lines: bool) -> bytes:
    if as_lines:
        return ("\n".join(json.dumps(row) for row in rows) + "\n").encode()
    return json.dumps(rows, indent=2).encode()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/debug/abconsole")
    parser.add_argument("--posters", type=int, default=8)
    parser.add_argument("--posts", type=int, default=20)
    parser.add_argument("--rows", type=int, default=25)
    options = parser.parse_args()
    report = Report()
    binary = os.path.abspath(options.bin)
    with open(SAMPLE) as handle:
        variants = [v["name"] for e in json.load(handle)["experiments"] if e["key"] == EXPERIMENT for v in e["variants"]]
    directory = tempfile.mkdtemp(prefix="exposure-posters-")
    try:
        store = os.path.join(directory, "experiments.json")
        shutil.copy(SAMPLE, store)
        logs = os.path.join(directory, "logs")
        os.mkdir(logs)
        environment = {k: v for k, v in os.environ.items() if not k.startswith("ABCONSOLE_")}
        server = subprocess.Popen([binary, "--store", store, "serve", "--listen", "127.0.0.1:0", "--exposures", logs],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment)
        line = server.stdout.readline().strip() if server.stdout else ""
        if not report.check(line.startswith("listening on 127.0.0.1:"), f"serve did not start: {line!r}"):
            server.kill()
            return report.finish()
        port = int(line.rsplit(":", 1)[1])

        bad = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        for body in (b"[{\"timestamp\":", b"\xff\xfe[]", b""):
            status, answer = post(bad, "/v1/exposures", body)
            report.check(status == 400 and isinstance(answer.get("errorDetails"), str), f"body {body!r}: {status} {answer}")
        report.check(os.listdir(logs) == [], lambda: f"a refused body wrote {os.listdir(logs)}")
        bad.close()

        accepted = {"exposures": 0, "conversions": 0}
        subjects: set[str] = set()
        converted: set[str] = set()
        lock = threading.Lock()

        def poster(number: int) -> None:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            for index in range(options.posts):
                names = [f"poster{number}-{index}-{row}" for row in range(options.rows)]
                rows = [exposure(name, variants[row % len(variants)]) for row, name in enumerate(names)]
                wrong = options.rows // 2
                rows.insert(wrong, exposure(f"poster{number}-{index}-bad", "no_such_variant"))
                status, answer = post(connection, "/v1/exposures", body_of(rows, as_lines=index % 2 == 1))
                if report.check(status == 200 and answer.get("accepted") == options.rows
                                and [r["index"] for r in answer.get("rejected", [])] == [wrong],
                                lambda: f"poster {number} post {index}: {status} {answer}"):
                    with lock:
                        accepted["exposures"] += answer["accepted"]
                        subjects.update(names)
                buyers = names[::3]
                status, answer = post(connection, "/v1/conversions", body_of([conversion(name) for name in buyers], as_lines=index % 2 == 0))
                if report.check(status == 200 and answer.get("accepted") == len(buyers) and answer.get("rejected") == [],
                                lambda: f"poster {number} conversions {index}: {status} {answer}"):
                    with lock:
                        accepted["conversions"] += answer["accepted"]
                        converted.update(buyers)
            connection.close()

        threads = [threading.Thread(target=poster, args=(number,)) for number in range(options.posters)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        server.send_signal(signal.SIGTERM)
        try:
            code = server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            code = None
        report.check(code == 0, f"serve did not stop with 0 on SIGTERM: {code}")

        for kind in ("exposures", "conversions"):
            files = sorted(name for name in os.listdir(logs) if name.startswith(kind + "-"))
            report.check(len(files) >= 1 and all(name.endswith(".jsonl") for name in files), f"{kind} files: {files}")
            lines: list[str] = []
            for name in files:
                with open(os.path.join(logs, name), "rb") as handle:
                    text = handle.read().decode()
                report.check(text.endswith("\n"), f"{name} does not end with a whole line")
                lines += text.splitlines()
            report.check(len(lines) == accepted[kind], f"{kind}: {len(lines)} lines, {accepted[kind]} accepted")
            report.check(len(set(lines)) == len(lines), f"{kind}: a line is written twice")
            parsed = 0
            for text in lines:
                try:
                    row = json.loads(text)
                    parsed += isinstance(row, dict) and "subject" in row
                except ValueError:
                    pass
            report.check(parsed == len(lines), f"{kind}: {len(lines) - parsed} lines are not whole rows")

        results = subprocess.run([binary, "--store", store, "results", EXPERIMENT, "--exposures", logs, "--conversions", logs,
                                  "--from", "2026-06-01", "--to", "2026-08-01", "--json"],
                                 capture_output=True, text=True, env=environment, timeout=120)
        if report.check(results.returncode == 0, f"results: exit {results.returncode}: {results.stderr}"):
            document = json.loads(results.stdout)
            exposed = document["subjects"]["exposed"]
            report.check(exposed == len(subjects) == options.posters * options.posts * options.rows,
                         f"results counts {exposed} exposed subjects, {len(subjects)} were accepted")
            metric = next((m for m in document["metrics"] if m["metric"] == "poster_buy"), None)
            counted = sum(v["sum"] for v in metric["variants"]) if metric else None
            report.check(counted == len(converted), f"results counts {counted} converted subjects, {len(converted)} were accepted")
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
