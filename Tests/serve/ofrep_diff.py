#!/usr/bin/env python3
"""`abconsole serve` against the real OpenFeature Python SDK with its OFREP provider.

Starts the real `abconsole serve --listen 127.0.0.1:0` (the port read from its `listening on`
line) over the sample store and over a generated store (whitelists, resolved, paused, draft and
device-level experiments, payloads of every JSON type), and evaluates every experiment for random
contexts through `openfeature-sdk` + `openfeature-provider-ofrep` (pip; test references only).
Each answer must equal `abconsole assign`: the variant by name, the value the variant's payload
when every variant has one (else its name), the reason `DEFAULT` exactly where the subject is
missing, and a draft must come back as FLAG_NOT_FOUND (the app's default). The bulk endpoint must
agree with the single one, its ETag must give 304, each flag's `metadata` must be exactly
`{"subjectType": TYPE}`, and no answer may name a weight, salt, status or a whitelisted id not asked for. Then a change to the store is served within seconds, a broken
store keeps the last good one, and SIGTERM exits 0.

    python3 Tests/serve/ofrep_diff.py --bin .build/debug/abconsole [--contexts 1500]

The last line is always `ofrep diff: N passed, M failed`; exit 0 only when M == 0.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "..", "..", "sample-data", "experiments.json")

try:
    from openfeature import api
    from openfeature.evaluation_context import EvaluationContext
    from openfeature.contrib.provider.ofrep import OFREPProvider
except ImportError:
    print("ofrep diff: needs `pip install openfeature-sdk openfeature-provider-ofrep`", file=sys.stderr)
    sys.exit(2)

FORBIDDEN = ["weight", "salt", "ranges", "running", "paused", "resolved", "draft", "whitelist", "bucket", "winner", "status"]


class Report:
    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0

    def check(self, ok: bool, what: str) -> bool:
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            if self.failed <= 20:
                print(f"FAIL {what}", file=sys.stderr)
        return ok


def run(binary: str, store: str, *words: str, stdin: str | None = None) -> str:
    done = subprocess.run([binary, "--store", store, *words], input=stdin, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"abconsole {' '.join(words)} failed ({done.returncode}): {done.stderr}")
    return done.stdout


class Server:
    """One `abconsole serve` process on an ephemeral loopback port."""

    def __init__(self, binary: str, store: str, *extra: str) -> None:
        self.process = subprocess.Popen([binary, "--store", store, "serve", "--listen", "127.0.0.1:0", *extra],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline().strip() if self.process.stdout else ""
        if not line.startswith("listening on 127.0.0.1:"):
            self.process.kill()
            raise SystemExit(f"serve did not start: {line!r} {self.process.stderr.read() if self.process.stderr else ''}")
        self.url = "http://" + line.removeprefix("listening on ")

    def post(self, path: str, body: object, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        request = urllib.request.Request(self.url + path, data=json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json", **(headers or {})})
        return self._send(request)

    def get(self, path: str) -> tuple[int, dict[str, str], bytes]:
        return self._send(urllib.request.Request(self.url + path))

    @staticmethod
    def _send(request: urllib.request.Request) -> tuple[int, dict[str, str], bytes]:
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def stop(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return -1


def describe(binary: str, store: str) -> dict[str, dict]:
    """Per experiment key: status, type, variant names and their values as served."""
    experiments = {}
    for item in json.loads(run(binary, store, "list", "--json")):
        shown = json.loads(run(binary, store, "show", item["key"], "--json"))
        variants = shown["variants"]
        all_payloads = all("payload" in v and v["payload"] is not None for v in variants)
        experiments[item["key"]] = {
            "status": item["status"], "type": item["type"],
            "values": {v["name"]: (v["payload"] if all_payloads else v["name"]) for v in variants},
            "whitelist": list((shown.get("whitelist") or {}).keys()) if isinstance(shown.get("whitelist"), dict)
            else [entry.get("subject") for entry in shown.get("whitelist") or [] if isinstance(entry, dict)],
        }
    return experiments


def evaluate(client, key: str, value_kind: object, context: EvaluationContext):
    """The SDK's details for `key`, asked with the method matching the expected value's type."""
    if isinstance(value_kind, bool):
        return client.get_boolean_details(key, not value_kind, context)
    if isinstance(value_kind, int):
        return client.get_integer_details(key, -1, context)
    if isinstance(value_kind, float):
        return client.get_float_details(key, -1.5, context)
    if isinstance(value_kind, (dict, list)):
        return client.get_object_details(key, {"default": True}, context)
    return client.get_string_details(key, "app-default", context)


def diff_store(binary: str, store: str, contexts: int, seed: int, report: Report, label: str) -> None:
    experiments = describe(binary, store)
    rng = random.Random(seed)
    listed = sorted({s for e in experiments.values() for s in e["whitelist"] if s})
    ids = [rng.choice(listed) if listed and rng.random() < 0.1 else f"id-{rng.randrange(10**9)}" for _ in range(contexts)]
    ids += [""]  # the missing subject
    batch = [json.loads(line) for line in run(binary, store, "assign", "--subjects", "-", "--json", stdin="\n".join(ids) + "\n").splitlines()]
    report.check(len(batch) == len(ids), f"{label}: assign answered every subject")

    server = Server(binary, store)
    api.set_provider(OFREPProvider(server.url))
    client = api.get_client()
    try:
        for subject_id, expected in zip(ids, batch):
            variants = expected["variants"]
            # The same id as user and device (as `assign --subjects` uses it), as userId or as targetingKey.
            if subject_id:
                key_name = rng.choice(["userId", "targetingKey"])
                context = EvaluationContext(attributes={key_name: subject_id, "deviceId": subject_id, "plan": "pro"})
                body_context: dict | None = {key_name: subject_id, "deviceId": subject_id}
            else:
                context = EvaluationContext()
                body_context = None
            answers = {}
            for key, experiment in experiments.items():
                served_values = experiment["values"]
                kind = next(iter(served_values.values()))
                details = evaluate(client, key, kind, context)
                if experiment["status"] == "draft":
                    report.check(details.error_code is not None and details.error_code.value == "FLAG_NOT_FOUND",
                                 f"{label}: draft {key} is not found ({details.error_code})")
                    continue
                want = variants[key]
                missing = not subject_id and experiment["status"] == "running"
                ok = (details.variant == want and details.value == served_values[want]
                      and details.reason == ("DEFAULT" if missing else "SPLIT") and details.error_code is None)
                report.check(ok, f"{label}: {key} for {subject_id!r}: got {details.variant}/{details.value!r}/{details.reason}/{details.error_code}, "
                                 f"want {want}/{served_values[want]!r}")
                answers[key] = (details.variant, details.value, details.reason)
            # The bulk endpoint says the same, and its ETag answers 304.
            status, headers, body = server.post("/ofrep/v1/evaluate/flags", {"context": body_context} if body_context else {})
            flags = {f["key"]: (f["variant"], f["value"], f["reason"]) for f in json.loads(body)["flags"]} if status == 200 else {}
            report.check(flags == answers, f"{label}: bulk agrees with single for {subject_id!r}")
            # Each flag's metadata names only which id the experiment buckets by.
            metadata = {f["key"]: f.get("metadata") for f in json.loads(body)["flags"]} if status == 200 else {}
            report.check(metadata == {key: {"subjectType": experiments[key]["type"]} for key in answers},
                         f"{label}: metadata names each experiment's subject type only: {metadata}")
            text = body.decode().lower()
            leaked = [w for w in FORBIDDEN if w in text] + [s for s in listed if s != subject_id and s in body.decode()]
            report.check(not leaked, f"{label}: bulk answer for {subject_id!r} shows {leaked}")
            if subject_id == ids[0] or not subject_id:
                again = server.post("/ofrep/v1/evaluate/flags", {"context": body_context} if body_context else {},
                                    {"If-None-Match": headers.get("ETag", "none")})
                report.check(again[0] == 304, f"{label}: If-None-Match with the ETag gives 304, not {again[0]}")
    finally:
        report.check(server.stop() == 0, f"{label}: SIGTERM exits 0")


def generated_store(binary: str, directory: str) -> str:
    store = os.path.join(directory, "generated.json")
    steps = [
        ["create", "promo", "--type", "user", "--variants", "off=40,on=60"],
        ["set-payload", "promo", "off", "false"], ["set-payload", "promo", "on", "true"],
        ["whitelist", "add", "promo", "partner-1", "on"], ["whitelist", "add", "promo", "emp-1001", "off"],
        ["start", "promo"],
        ["create", "price", "--type", "device", "--variants", "low=30,mid=30,high=40"],
        ["set-payload", "price", "low", "1.5"], ["set-payload", "price", "mid", "2.25"], ["set-payload", "price", "high", "3.75"],
        ["whitelist", "add", "price", "device-vip", "high"], ["start", "price"],
        ["create", "limit", "--type", "user", "--variants", "a=50,b=50"],
        ["set-payload", "limit", "a", "10"], ["set-payload", "limit", "b", "20"], ["start", "limit"],
        ["create", "copy", "--type", "user", "--variants", "short=50,long=50"],
        ["set-payload", "copy", "short", '"Buy"'], ["set-payload", "copy", "long", '"Buy it now"'], ["start", "copy"],
        ["create", "layout", "--type", "user", "--variants", "grid=50,list=50"],
        ["set-payload", "layout", "grid", '{"columns":[2,3],"dense":null}'], ["start", "layout"],  # list has no payload: names
        ["ramp", "layout", "grid=10", "list=20"],
        ["create", "done", "--type", "user", "--variants", "x=50,y=50"], ["start", "done"],
        ["resolve", "done", "y", "--yes", "--force"],
        ["create", "stopped", "--type", "device", "--variants", "base=10,alt=90"], ["start", "stopped"], ["pause", "stopped"],
        ["create", "unreleased", "--type", "user", "--variants", "base=50,alt=50"],
        ["whitelist", "add", "unreleased", "partner-1", "alt"],
    ]
    for step in steps:
        done = subprocess.run([binary, "--store", store, *step], capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"setting up the generated store: {' '.join(step)}: {done.stderr}")
    return store


def live_and_access(binary: str, directory: str, report: Report) -> None:
    store = os.path.join(directory, "live.json")
    shutil.copy(SAMPLE, store)
    server = Server(binary, store)
    try:
        revision = json.loads(server.get("/healthz")[2])["revision"]
        run(binary, store, "pause", "ebook_promotion")
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and json.loads(server.get("/healthz")[2]).get("revision") == revision:
            time.sleep(0.05)
        report.check(json.loads(server.get("/healthz")[2]).get("revision") == revision + 1, "a changed store is served within seconds")
        status, _, body = server.post("/ofrep/v1/evaluate/flags/ebook_promotion", {"context": {"userId": "u1"}})
        report.check(status == 200 and json.loads(body)["variant"] == "control", "the paused experiment now serves control")
        with open(store, "w") as handle:
            handle.write("{ broken")
        time.sleep(1.5)
        status, _, body = server.get("/healthz")
        report.check(status == 200 and json.loads(body)["revision"] == revision + 1, "a broken store keeps the last good one")
        status, _, _ = server.post("/ofrep/v1/evaluate/flags/nope", {"context": {}})
        report.check(status == 404, "an unknown key is 404")
    finally:
        report.check(server.stop() == 0, "live: SIGTERM exits 0")
    stderr = server.process.stderr.read() if server.process.stderr else ""
    report.check(stderr.count("still serving the last good store") == 1, f"the broken store is reported once: {stderr!r}")

    # Without --tokens only loopback; a missing tokens file is 66, a malformed one 64.
    refused = subprocess.run([binary, "--store", store, "serve", "--listen", "0.0.0.0:0"], capture_output=True, text=True, timeout=10)
    report.check(refused.returncode == 64 and "--tokens" in refused.stderr, f"non-loopback without tokens: {refused.returncode} {refused.stderr!r}")
    missing = subprocess.run([binary, "--store", store, "serve", "--tokens", os.path.join(directory, "none")], capture_output=True, text=True, timeout=10)
    report.check(missing.returncode == 66, f"missing tokens file: {missing.returncode}")
    bad = os.path.join(directory, "bad-tokens")
    with open(bad, "w") as handle:
        handle.write("just-one-word\n")
    malformed = subprocess.run([binary, "--store", store, "serve", "--tokens", bad], capture_output=True, text=True, timeout=10)
    report.check(malformed.returncode == 64 and "line 1" in malformed.stderr, f"malformed tokens file: {malformed.returncode} {malformed.stderr!r}")

    # Tokens: the SDK with a bearer header gets answers, without one the app's default; SIGHUP re-reads.
    shutil.copy(SAMPLE, store)
    tokens = os.path.join(directory, "tokens")
    with open(tokens, "w") as handle:
        handle.write("ios ios-token-0123456789\n")
    log = os.path.join(directory, "access.log")
    server = Server(binary, store, "--tokens", tokens, "--access-log", log)
    try:
        api.set_provider(OFREPProvider(server.url, headers_factory=lambda: {"Authorization": "Bearer ios-token-0123456789"}))
        details = api.get_client().get_string_details("onboarding_flow", "app-default", EvaluationContext("u1"))
        report.check(details.error_code is None and details.variant is not None, f"a token is accepted: {details}")
        api.set_provider(OFREPProvider(server.url))
        details = api.get_client().get_string_details("onboarding_flow", "app-default", EvaluationContext("u1"))
        report.check(details.value == "app-default" and details.error_code is not None, "without a token the app keeps its default")

        def hang_up(text: str, token: str, expected: int) -> int:
            """Rewrites the tokens file, sends SIGHUP, and waits up to 5 s for `token` to get `expected`."""
            with open(tokens, "w") as handle:
                handle.write(text)
            server.process.send_signal(signal.SIGHUP)
            deadline = time.monotonic() + 5
            while True:
                status = server.post("/ofrep/v1/evaluate/flags", {}, {"X-API-Key": token})[0]
                if status == expected or time.monotonic() > deadline:
                    return status
                time.sleep(0.05)

        status = hang_up("web web-token-0123456789\n", "web-token-0123456789", 200)
        report.check(status == 200, f"SIGHUP re-reads the tokens: {status}")
        status, _, _ = server.post("/ofrep/v1/evaluate/flags", {}, {"X-API-Key": "ios-token-0123456789"})
        report.check(status == 401, f"a token no longer listed is refused: {status}")
        status = hang_up("web\n", "web-token-0123456789", 401)  # it must not turn 401
        report.check(status == 200, f"a malformed tokens file on SIGHUP keeps the tokens read before: {status}")
    finally:
        report.check(server.stop() == 0, "tokens: SIGTERM exits 0")
    stderr = server.process.stderr.read() if server.process.stderr else ""
    report.check("line 1" in stderr and "keeping the tokens read before" in stderr, f"the bad tokens file is reported: {stderr!r}")
    with open(log) as handle:
        lines = handle.read().splitlines()
    report.check(len(lines) >= 4 and not any("token-0123456789" in line for line in lines), "the access log names tokens, never shows them")
    report.check(any(line.split(" ")[2] == "web" for line in lines), "the access log names the token's NAME")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/debug/abconsole")
    parser.add_argument("--contexts", type=int, default=1500, help="random contexts per store")
    parser.add_argument("--seed", type=int, default=30)
    args = parser.parse_args()
    binary = os.path.abspath(args.bin)
    report = Report()
    directory = tempfile.mkdtemp(prefix="ofrep-diff-")
    try:
        sample = os.path.join(directory, "sample.json")
        shutil.copy(SAMPLE, sample)
        started = time.monotonic()
        diff_store(binary, sample, args.contexts, args.seed, report, "sample")
        diff_store(binary, generated_store(binary, directory), args.contexts, args.seed + 1, report, "generated")
        live_and_access(binary, directory, report)
        print(f"ofrep diff: {2 * args.contexts} contexts in {time.monotonic() - started:.1f} s", file=sys.stderr)
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    print(f"ofrep diff: {report.passed} passed, {report.failed} failed")
    return 0 if report.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
