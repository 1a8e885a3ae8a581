#!/usr/bin/env python3
"""Hostile event logs and client snapshots: replays Tests/corpus/inputs.json against the real binaries.

Logs: `abconsole results e` over a copy of base.json with one hostile log (the other a valid one).
Each case must end within the timeout, without a crash (no exit >= 128, no Swift runtime text),
with the expected exit code and phrase; a refusal's first line names the file and the line
(`abconsole: FILE:LINE: `). Snapshots: `client-example --snapshot PATH` on files, a FIFO, a
directory and a device; each must serve the defaults (exit 0) within the timeout and say in one
line why the snapshot was not used. Ends with `inputs: N passed, M failed`.

    scripts/reliability/corpus_inputs.py [--bin PATH] [--client PATH] [--only SUBSTRING]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, RUNTIME_MARKERS, default_binary, environment  # noqa: E402

CORPUS = os.path.join(ROOT, "Tests", "corpus")
TIMEOUT = 20
LATER = "2026-03-02T00:00:00Z"
VALID_EXPOSURES = b'{"timestamp":"2026-03-01T11:00:00Z","experiment":"e","variant":"a","subject":"u1"}\n'
VALID_CONVERSIONS = b'{"timestamp":"2026-03-01T12:00:00Z","subject":"u1","metric":"buy"}\n'


def run(argv, env, cwd):
    """(exit code, stdout, stderr); a hang past TIMEOUT is code None."""
    try:
        done = subprocess.run(argv, capture_output=True, env=env, cwd=cwd, timeout=TIMEOUT, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return None, "", ""
    return done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace")


def crash_problems(code, stderr):
    if code is None:
        return [f"still running after {TIMEOUT} s"]
    problems = [f"exit {code} (a signal)"] if code < 0 or code >= 128 else []
    return problems + [f"stderr contains {marker!r}" for marker in RUNTIME_MARKERS if marker in stderr]


def log_case(binary, case, env):
    with tempfile.TemporaryDirectory(prefix="abconsole-inputs-") as directory:
        shutil.copyfile(os.path.join(CORPUS, "base.json"), os.path.join(directory, "experiments.json"))
        shutil.copyfile(os.path.join(CORPUS, "logs", case["file"]), os.path.join(directory, case["file"]))
        for name, data in (("ok-exposures.jsonl", VALID_EXPOSURES), ("ok-conversions.jsonl", VALID_CONVERSIONS)):
            with open(os.path.join(directory, name), "wb") as handle:
                handle.write(data)
        paths = {"exposures": "ok-exposures.jsonl", "conversions": "ok-conversions.jsonl"}
        if case["role"] == "summary":
            args = ["results", "e", "--summary", case["file"]]
        else:
            paths[case["role"]] = case["file"]
            args = ["results", "e", "--exposures", paths["exposures"], "--conversions", paths["conversions"]]
        code, stdout, stderr = run([binary] + args, env, directory)
        problems = crash_problems(code, stderr)
        if code is not None and code != case["code"]:
            problems.append(f"exit {code}, expected {case['code']}: {stderr.strip()[:300]!r}")
        phrase = case["phrase"].replace("{file}", case["file"])
        if phrase not in stdout + stderr:
            problems.append(f"output lacks {phrase!r}: {(stderr or stdout).strip()[:300]!r}")
        if code not in (0, None):
            first = stderr.split("\n", 1)[0]
            where = re.escape(case["file"]) + (r":\d+: " if code == 65 else r": ")
            if not re.match(r"abconsole: " + where, first):
                problems.append(f"the first line does not name the file and line: {first[:200]!r}")
        return problems


def snapshot_case(client, case, env):
    with tempfile.TemporaryDirectory(prefix="abconsole-inputs-") as directory:
        path = os.path.join(directory, "snapshot.json")
        if case["kind"] == "file":
            shutil.copyfile(os.path.join(CORPUS, "snapshots", case["file"]), path)
        elif case["kind"] == "fifo":
            os.mkfifo(path)
        elif case["kind"] == "directory":
            os.mkdir(path)
        else:
            path = "/dev/null"
        code, stdout, stderr = run([client, "--snapshot", path, "--user", "u1"], env, directory)
        problems = crash_problems(code, stderr)
        if code is not None and code != 0:
            problems.append(f"exit {code}, expected 0 (defaults served)")
        if code == 0 and not all(line.endswith(" default") for line in stdout.splitlines()):
            problems.append("a value other than the default was served")
        expected = f"client-example: snapshot {path} not used: "
        lines = [line for line in stderr.splitlines() if line.startswith(expected)]
        if not lines or case["phrase"] not in lines[0]:
            problems.append(f"stderr lacks {expected + case['phrase']!r}: {stderr.strip()[:300]!r}")
        for marker in ("NSCocoaErrorDomain", "permission", "Error Domain"):
            if marker in stderr:
                problems.append(f"stderr says {marker!r}")
        return problems


def live_logger(binary, env, runs=30):
    """`results` read 30 times while a logger appends rows in two writes each (so half a row is often
    at the end of the file): every read must succeed; returns the problems."""
    with tempfile.TemporaryDirectory(prefix="abconsole-inputs-") as directory:
        shutil.copyfile(os.path.join(CORPUS, "base.json"), os.path.join(directory, "experiments.json"))
        with open(os.path.join(directory, "c.jsonl"), "wb") as handle:
            handle.write(VALID_CONVERSIONS)
        log = os.path.join(directory, "x.jsonl")
        stop = threading.Event()

        def append():
            with open(log, "ab", buffering=0) as handle:
                index = 0
                while not stop.is_set():
                    row = VALID_EXPOSURES.replace(b'"u1"', f'"u{index}"'.encode())
                    handle.write(row[:40])
                    time.sleep(0.0005)
                    handle.write(row[40:])
                    index += 1

        open(log, "wb").close()
        writer = threading.Thread(target=append)
        writer.start()
        problems, partial = [], 0
        try:
            for _ in range(runs):
                code, stdout, stderr = run([binary, "results", "e", "--exposures", "x.jsonl", "--conversions", "c.jsonl"], env, directory)
                problems += crash_problems(code, stderr)
                if code not in (0, None):
                    problems.append(f"exit {code}: {stderr.strip()[:200]!r}")
                partial += "the last line is incomplete" in stdout
        finally:
            stop.set()
            writer.join()
        print(f"inputs: live logger: {runs} reads, {partial} saw a partial last line")
        return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=default_binary())
    parser.add_argument("--client", default=None, help="client-example (default: beside --bin)")
    parser.add_argument("--only", default="")
    options = parser.parse_args()
    binary = os.path.abspath(options.bin)
    client = os.path.abspath(options.client or os.path.join(os.path.dirname(binary), "client-example"))
    with open(os.path.join(CORPUS, "inputs.json")) as handle:
        inputs = json.load(handle)
    env = environment(operator="inputs", ABCONSOLE_NOW=LATER)
    started = time.monotonic()
    passed, failed = 0, 0
    for kind, cases, check in (("logs", inputs["logs"], lambda c: log_case(binary, c, env)),
                               ("snapshots", inputs["snapshots"], lambda c: snapshot_case(client, c, env))):
        for case in cases:
            if options.only not in case["name"]:
                continue
            problems = check(case)
            if problems:
                failed += 1
                print(f"inputs: FAILED {kind}/{case['name']}: {'; '.join(problems)}")
            else:
                passed += 1
    if not options.only or options.only in "live-logger":
        problems = live_logger(binary, env)
        if problems:
            failed += 1
            print(f"inputs: FAILED live-logger: {'; '.join(problems[:5])}")
        else:
            passed += 1
    print(f"inputs: {passed + failed} cases in {time.monotonic() - started:.1f} s")
    print(f"inputs: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
