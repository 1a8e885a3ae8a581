#!/usr/bin/env python3
"""Terminal safety of subcommand output: hostile text never reaches the terminal raw.

Escape sequences (CSI, OSC with BEL), C1 controls, DEL, carriage returns and bidi overrides are put
into every text field a store holds — descriptions, notes, payloads, subject ids, operators, salts,
history — through the CLI and by editing the file. The plain output of `list`, `show`, `whitelist
list`, `history`, `inspect` and `assign` must hold none of them raw; the `--json` output must be
valid JSON that round-trips the exact strings. Ends with `terminal: N passed, M failed`.

    scripts/reliability/terminal.py [--bin PATH]
"""
import argparse
import json
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import default_binary, environment, run  # noqa: E402

#: Bytes that can drive a terminal: C0 controls but newline and tab (`assign` separates columns with
#: tabs; a tab inside data is escaped like any control), DEL, C1 (as UTF-8), bidi overrides/isolates.
UNSAFE = re.compile(rb"[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xaa-\xae]|\xe2\x81[\xa6-\xa9]")
#: Every kind of hostile text at once (argv cannot carry NUL; the file edit below adds it).
HOSTILE = "clear\x1b[2J osc\x1b]0;owned\x07 c1\u009b31m del\x7f cr\rlf\nfake tab\t bidi\u202eevil\u202c iso\u2066x\u2069"
#: What subject ids and operators may hold (no control characters), still able to reorder text.
BIDI = "user\u202egnp.exe\u202c\u2066"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=default_binary())
    options = parser.parse_args()
    binary = os.path.abspath(options.bin)
    work = tempfile.mkdtemp(prefix="abconsole-terminal-")
    store = os.path.join(work, "experiments.json")
    env = environment(operator="op" + BIDI)
    failures, checks = [], 0

    def must(args, stdin=None):
        result = run(binary, store, args, env=env, stdin=stdin)
        if result.code != 0:
            sys.exit(f"terminal: setup failed: {result!r}")
        return result

    must(["create", "term", "--type", "user", "--variants", "control=50,treat=50", "--salt", "salt" + BIDI, "--description", HOSTILE])
    must(["add-variant", "term", "extra", "--payload", json.dumps({"message": HOSTILE, HOSTILE: [HOSTILE]})])
    must(["set-payload", "term", "treat", json.dumps(HOSTILE)])
    must(["start", "term"])
    must(["whitelist", "add", "term", BIDI, "treat", "--note", HOSTILE])
    csv = os.path.join(work, "import.csv")
    with open(csv, "w", encoding="utf-8", newline="") as handle:
        handle.write('subject,variant,note\n"imported' + "\u202e" + '",control,"' + HOSTILE.replace('"', '""') + '"\n')
    must(["whitelist", "import", "term", csv])
    # What only a hand-edited file can hold: controls in fields the CLI refuses or does not set.
    with open(store, encoding="utf-8") as handle:
        document = json.load(handle)
    experiment = document["experiments"][0]
    experiment["updated_by"] = "editor\x1b[31m\x00"
    experiment["whitelist"][0]["added_by"] = "adder\x1b]52;c;cGF5bG9hZA==\x07"
    document["history"][0]["before"] = HOSTILE + "\x00"
    document["history"][0]["after"] = HOSTILE
    with open(store, "w", encoding="utf-8") as handle:
        json.dump(document, handle, indent=2, sort_keys=True, ensure_ascii=True)
    must(["validate"])

    plain = [["list"], ["list", "--status", "running"], ["show", "term"], ["whitelist", "list", "term"], ["history"],
             ["history", "term"], ["inspect", "--user", BIDI], ["inspect", "--user", BIDI, "term"],
             ["assign", "term", "--user", BIDI], ["assign", "term", "--subjects", "-"], ["ramp", "term", "control=40", "--dry-run"]]
    for args in plain:
        stdin = (BIDI + "\nplain-user\n").encode() if "--subjects" in args else None
        result = run(binary, store, args, env=env, stdin=stdin)
        checks += 1
        problems = []
        if result.code != 0 or result.runtime_failure():
            problems.append(repr(result))
        for stream, data in (("stdout", result.stdout), ("stderr", result.stderr)):
            match = UNSAFE.search(data)
            if match:
                problems.append(f"raw {match.group()!r} on {stream} near {data[max(0, match.start() - 30):match.end() + 10]!r}")
        if not result.stdout:
            problems.append("no output")
        if problems:
            failures.append(f"`{' '.join(args)}`: {'; '.join(problems)}")

    # --json: valid JSON with the exact strings.
    def json_of(args, stdin=None):
        nonlocal checks
        checks += 1
        result = run(binary, store, args + ["--json"], env=env, stdin=stdin)
        try:
            if result.code != 0:
                raise ValueError(repr(result))
            lines = result.text.splitlines() if "--subjects" in args else [result.text]
            return [json.loads(line) for line in lines][0 if "--subjects" not in args else slice(None)]
        except ValueError as error:
            failures.append(f"`{' '.join(args)} --json` is not valid JSON: {error}")
            return None

    shown = json_of(["show", "term"]) or {}
    variants = {v["name"]: v for v in shown.get("variants", [])}
    whitelist = {w["subject"]: w for w in shown.get("whitelist", [])}
    expectations = [
        ("show description", shown.get("description"), HOSTILE),
        ("show salt", shown.get("salt"), "salt" + BIDI),
        ("show updated_by", shown.get("updated_by"), "editor\x1b[31m\x00"),
        ("show payload object", variants.get("extra", {}).get("payload"), {"message": HOSTILE, HOSTILE: [HOSTILE]}),
        ("show payload string", variants.get("treat", {}).get("payload"), HOSTILE),
        ("show whitelist note", whitelist.get(BIDI, {}).get("note"), HOSTILE),
        ("show imported note", whitelist.get("imported\u202e", {}).get("note"), HOSTILE),
        ("show added_by", whitelist.get(BIDI, {}).get("added_by") or whitelist.get("imported\u202e", {}).get("added_by"),
         "op" + BIDI),
    ]
    listed = json_of(["list"]) or [{}]
    expectations.append(("list description", listed[0].get("description"), HOSTILE))
    entries = {w["subject"]: w for w in (json_of(["whitelist", "list", "term"]) or [])}
    expectations.append(("whitelist list note", entries.get(BIDI, {}).get("note"), HOSTILE))
    expectations.append(("whitelist list subject", sorted(entries), sorted([BIDI, "imported\u202e"])))
    history = json_of(["history", "term"]) or [{}]
    expectations.append(("history before", history[0].get("before"), HOSTILE + "\x00"))
    expectations.append(("history operator", history[-1].get("operator"), "op" + BIDI))
    inspected = json_of(["inspect", "--user", BIDI, "term"]) or [{}]
    expectations.append(("inspect subject", inspected[0].get("subject"), BIDI))
    expectations.append(("inspect reason", inspected[0].get("reason"), "whitelisted"))
    assigned = json_of(["assign", "term", "--user", BIDI]) or {}
    expectations.append(("assign variant", assigned.get("variants"), {"term": "treat"}))
    batch = json_of(["assign", "term", "--subjects", "-"], stdin=(BIDI + "\n").encode()) or [{}]
    expectations.append(("assign batch subject", batch[0].get("subject"), BIDI))
    for label, actual, expected in expectations:
        checks += 1
        if actual != expected:
            failures.append(f"--json {label}: {actual!r} != {expected!r}")

    shutil.rmtree(work, ignore_errors=True)
    for failure in failures:
        print(f"terminal: FAILED {failure}")
    print(f"terminal: {len(plain)} plain outputs free of raw controls, {checks - len(plain)} --json checks; "
          f"{checks - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
