#!/usr/bin/env python3
"""Hostile and broken input: replays every case of Tests/corpus/ against the real abconsole binary.

Each case must end without a crash (no signal, no Swift runtime text), with a clear first line on
stderr (`abconsole: ...`, no raw control characters) holding the expected phrase, the expected exit
code (65 bad data, 66 missing, 64 usage, ...), and every file byte-for-byte unchanged (only the
sibling lock file may appear). Ends with `corpus: N passed, M failed`.

    scripts/reliability/corpus.py [--bin PATH] [--only SUBSTRING] [--skip-huge]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, default_binary, environment, run  # noqa: E402

CORPUS = os.path.join(ROOT, "Tests", "corpus")
STORE = "experiments.json"
#: Raw bytes that may drive a terminal: C0 controls but newline, DEL, C1 (UTF-8 C2 80–9F), bidi controls.
UNSAFE = re.compile(rb"[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xaa-\xae]|\xe2\x81[\xa6-\xa9]")


def snapshot_files(directory):
    files = {}
    for name in os.listdir(directory):
        path = os.path.join(directory, name)
        if os.path.isfile(path):
            with open(path, "rb") as handle:
                files[name] = handle.read()
    return files


def expand(spec_path):
    with open(spec_path) as handle:
        spec = json.load(handle)
    return spec["prefix"].encode() + spec["unit"].encode() * spec["count"] + spec["suffix"].encode()


def check(result, code, phrase):
    problems = []
    crash = result.runtime_failure()
    if crash:
        problems.append(crash)
    if result.code != code:
        problems.append(f"exit {result.code}, expected {code}")
    for stream, data in (("stdout", result.stdout), ("stderr", result.stderr)):
        if UNSAFE.search(data):
            problems.append(f"raw control characters on {stream}")
    if code != 0:
        first = result.error.split("\n", 1)[0]
        if not first.startswith("abconsole: ") or len(first) < 20:
            problems.append(f"unclear first line {first[:120]!r}")
        if phrase and phrase not in result.error:
            problems.append(f"stderr lacks {phrase!r}: {result.error[:300]!r}")
        if result.stdout:
            problems.append(f"stdout not empty on error: {result.text[:120]!r}")
    return problems


#: A non-finite number in any output (`inf`, `-nan`, `NaN`, `Infinity`) as a word of its own.
NON_FINITE = re.compile(rb"(?<![A-Za-z])(-?inf(inity)?|-?nan)(?![A-Za-z])", re.IGNORECASE)
#: How a refused row is named: `FILE:LINE: `.
FILE_LINE = re.compile(r"\.(jsonl|ndjson|csv):\d+: ")


def lay_out_event_files(directory, files):
    """Writes an event case's files: text, expanded specs, FIFOs, directories or symlinks."""
    for name, spec in files.items():
        path = os.path.join(directory, name)
        if isinstance(spec, str):
            data = spec.encode()
        elif spec.get("fifo"):
            os.mkfifo(path)
            continue
        elif spec.get("directory"):
            os.mkdir(path)
            continue
        elif "link" in spec:
            os.symlink(spec["link"], path)
            continue
        elif "template" in spec:
            data = "".join(spec["template"].replace("{i}", str(i)).replace("{s}", str(i % 20))
                           for i in range(spec["count"])).encode()
        else:
            data = expand_spec(spec)
        with open(path, "wb") as handle:
            handle.write(data)


def expand_spec(spec):
    return spec["prefix"].encode() + spec["unit"].encode() * spec["count"] + spec.get("suffix", "").encode()


def check_event_case(result, case):
    """The corpus rules plus: no non-finite number anywhere, and a refused row named by file and line."""
    problems = check(result, case["code"], case["phrase"])
    if result.code >= 128:
        problems.append(f"exit {result.code} (a signal)")
    for stream, data in (("stdout", result.stdout), ("stderr", result.stderr)):
        if NON_FINITE.search(data):
            problems.append(f"a non-finite number on {stream}: {NON_FINITE.search(data).group(0)!r}")
    if case["code"] == 65 and not FILE_LINE.search(result.error):
        problems.append(f"the refusal names no FILE:LINE: {result.error[:200]!r}")
    if case.get("absent") and case["absent"].encode() in result.stdout + result.stderr:
        problems.append(f"the output says {case['absent']!r}")
    return problems


def unchanged(directory, before):
    after = snapshot_files(directory)
    problems = [f"{name} changed" for name, data in before.items() if after.get(name) != data]
    problems += [f"{name} appeared" for name in after if name not in before and name != STORE + ".lock"]
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=default_binary())
    parser.add_argument("--only", default="")
    parser.add_argument("--skip-huge", action="store_true", help="skip the generated 50 MB stores")
    options = parser.parse_args()
    binary = os.path.abspath(options.bin)
    with open(os.path.join(CORPUS, "manifest.json")) as handle:
        manifest = json.load(handle)
    with open(os.path.join(CORPUS, "args.json")) as handle:
        argument_cases = json.load(handle)
    with open(os.path.join(CORPUS, "base.json"), "rb") as handle:
        base = handle.read()
    env = environment(operator="corpus", ABCONSOLE_LOCK_TIMEOUT="2")
    passed, failed, counts = 0, [], {}
    started = time.monotonic()

    def record(kind, name, problems):
        nonlocal passed
        counts[kind] = counts.get(kind, 0) + 1
        if problems:
            failed.append(f"{kind}/{name}: {'; '.join(problems)}")
            print(f"corpus: FAILED {kind}/{name}: {'; '.join(problems)}")
        else:
            passed += 1

    # The base store itself must be valid, or every other case proves nothing.
    with tempfile.TemporaryDirectory(prefix="abconsole-corpus-") as directory:
        with open(os.path.join(directory, STORE), "wb") as handle:
            handle.write(base)
        result = run(binary, None, ["validate"], env=env, cwd=directory)
        if result.code != 0:
            sys.exit(f"corpus: base.json is not valid: {result!r}")

    for name, expectation in sorted(manifest["stores"].items()):
        if options.only not in name or (options.skip_huge and name.endswith(".gen.json")):
            continue
        path = os.path.join(CORPUS, "stores", name)
        with tempfile.TemporaryDirectory(prefix="abconsole-corpus-") as directory:
            data = expand(path) if name.endswith(".gen.json") else open(path, "rb").read()
            with open(os.path.join(directory, STORE), "wb") as handle:
                handle.write(data)
            before = snapshot_files(directory)
            problems = []
            commands = [["validate"], ["list"], ["show", "e", "--json"]]
            if expectation["code"] != 0 and not expectation.get("read_only"):
                commands += [["whitelist", "add", "e", "corpus-subject", "a"], ["ramp", "e", "a=10"]]
            for args in commands:
                result = run(binary, None, args, env=env, cwd=directory, timeout=120)
                problems += [f"`{' '.join(args)}`: {p}" for p in check(result, expectation["code"], expectation["phrase"])]
            problems += unchanged(directory, before)
            record("stores", name, problems)

    for name, expectation in sorted(manifest["csv"].items()):
        if options.only not in name:
            continue
        with tempfile.TemporaryDirectory(prefix="abconsole-corpus-") as directory:
            with open(os.path.join(directory, STORE), "wb") as handle:
                handle.write(base)
            shutil.copyfile(os.path.join(CORPUS, "csv", name), os.path.join(directory, "import.csv"))
            before = snapshot_files(directory)
            result = run(binary, None, ["whitelist", "import", "e", "import.csv"], env=env, cwd=directory)
            problems = check(result, expectation["code"], expectation["phrase"])
            problems += unchanged(directory, before) if expectation["code"] != 0 else []
            record("csv", name, problems)

    # What the fuzzers found (scripts/fuzz/run.sh keeps it): refused (65, nothing written) or accepted.
    found = os.path.join(CORPUS, "fuzz-found")
    for name in sorted(os.listdir(found)) if os.path.isdir(found) else []:
        if options.only not in name or not name.startswith(("store-", "csv-")):
            continue
        with tempfile.TemporaryDirectory(prefix="abconsole-corpus-") as directory:
            is_store = name.startswith("store-")
            shutil.copyfile(os.path.join(found, name) if is_store else os.path.join(CORPUS, "base.json"),
                            os.path.join(directory, STORE))
            if not is_store:
                shutil.copyfile(os.path.join(found, name), os.path.join(directory, "import.csv"))
            before = snapshot_files(directory)
            commands = ([["validate"], ["list"], ["whitelist", "add", "e", "corpus-subject", "a"]] if is_store
                        else [["whitelist", "import", "e", "import.csv"]])
            problems = []
            for args in commands:
                result = run(binary, None, args, env=env, cwd=directory, timeout=120)
                code = result.code if result.code in (0, 65) else 65
                problems += [f"`{' '.join(args)}`: {p}" for p in check(result, code, "")]
                if result.code != 0:
                    problems += unchanged(directory, before)
                    break
            record("fuzz-found", name, problems)

    for case in argument_cases:
        if options.only not in case["name"]:
            continue
        with tempfile.TemporaryDirectory(prefix="abconsole-corpus-") as directory:
            with open(os.path.join(directory, STORE), "wb") as handle:
                handle.write(base)
            before = snapshot_files(directory)
            args = [arg.replace("{dir}", directory) for arg in case["args"]]
            case_env = dict(env, **case.get("env", {}))
            stdin = case["stdin"].encode() if "stdin" in case else None
            result = run(binary, None, args, env=case_env, cwd=directory, stdin=stdin)
            problems = check(result, case["code"], case["phrase"]) + unchanged(directory, before)
            record("args", case["name"], problems)

    # Hostile event logs and summaries for `results` (make_corpus.py's events.json), each bounded in time.
    events_path = os.path.join(CORPUS, "events.json")
    for case in json.load(open(events_path)) if os.path.exists(events_path) else []:
        if options.only not in case["name"]:
            continue
        with tempfile.TemporaryDirectory(prefix="abconsole-corpus-") as directory:
            with open(os.path.join(directory, STORE), "wb") as handle:
                handle.write(base)
            lay_out_event_files(directory, case["files"])
            case_env = {**env, "ABCONSOLE_NOW": "2026-03-02T00:00:00Z", **case.get("env", {})}
            try:
                result = run(binary, None, case["args"], env=case_env, cwd=directory, timeout=20)
                problems = check_event_case(result, case)
            except subprocess.TimeoutExpired:
                problems = ["still running after 20 s"]
            record("events", case["name"], problems)

    total = sum(counts.values())
    print(f"corpus: {total} cases ({', '.join(f'{v} {k}' for k, v in sorted(counts.items()))}) in "
          f"{time.monotonic() - started:.0f} s")
    print(f"corpus: {passed} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
