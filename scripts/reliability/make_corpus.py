#!/usr/bin/env python3
"""Writes the hostile-input corpus under Tests/corpus/ (committed; rerun to regenerate).

    stores/*.json        broken store files: `validate`, `list` and a mutation must each refuse them
    stores/*.gen.json    absurdly large stores, described here and expanded by the runner
    csv/*.csv            bad whitelist imports into the valid `base.json`
    args.json            bad arguments, bad subject ids and bad environment settings
    events.json          hostile event logs and summaries for `results` (files written by the runner)
    manifest.json        the expected exit code and message phrase of every store and CSV case
    fuzz-found/          inputs the fuzzers found (kept by scripts/fuzz/run.sh), replayed like the others

Each case expects: no crash, a clear first line, the exit code given here, every file unchanged.
"""
import copy
import json
import os
import shutil

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CORPUS = os.path.join(ROOT, "Tests", "corpus")
AT = "2026-03-01T10:00:00Z"


def variant(name, weight, ranges, payload=None):
    return {"name": name, "weight": weight, "ranges": ranges, "payload": payload}


def entry(subject, variant_name, note=""):
    return {"subject": subject, "variant": variant_name, "note": note, "added_by": "seed", "added_at": AT}


def experiment(key, status="running", winner=None, variants=None, whitelist=None):
    return {
        "key": key, "type": "user", "status": status, "salt": key, "control": "a", "winner": winner,
        "description": "a corpus experiment", "revision": 3, "created_at": AT, "updated_at": AT, "updated_by": "seed",
        "variants": variants if variants is not None else [variant("a", 50, [[0, 5000]], {"color": "#0a84ff"}),
                                                          variant("b", 30, [[5000, 8000]])],
        "whitelist": whitelist if whitelist is not None else [entry("qa-1", "a", "QA"), entry("qa-2", "b")],
    }


def history(key, action="create", before=None, after="draft a=50,b=30"):
    return {"at": AT, "operator": "seed", "experiment": key, "action": action, "before": before, "after": after}


BASE = {
    "schema_version": 1,
    "revision": 4,
    "experiments": [
        experiment("e"),
        experiment("r", status="resolved", winner="b"),
    ],
    "history": [history("e"), history("e", "start", "draft", "running"), history("r"),
                history("r", "resolve", "running a=50,b=30", "resolved winner=b")],
}


def text(document):
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def mutated(change):
    document = copy.deepcopy(BASE)
    change(document)
    return text(document).encode()


def e(document):
    return document["experiments"][0]


def set_path(path, value):
    def change(document):
        target = document
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


def delete_path(path):
    def change(document):
        target = document
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]
    return change


def store_cases():
    """(name, bytes, exit code, phrase expected in stderr)."""
    base = text(BASE).encode()
    cases = []

    def add(name, data, phrase, code=65):
        cases.append((name, data if isinstance(data, bytes) else data.encode(), code, phrase))

    # Truncated and empty.
    add("empty", b"", "not valid JSON")
    add("whitespace-only", b" \n\t\n", "not valid JSON")
    for share in (1, 10, 50, 90, 99):
        add(f"truncated-{share:02d}pct", base[: len(base) * share // 100], "not valid JSON")
    add("truncated-last-brace", base.rstrip()[:-1], "not valid JSON")
    add("truncated-mid-string", base[: base.index(b"a corpus") + 4], "not valid JSON")
    # Not UTF-8, encodings, BOM, NUL.
    add("latin1-byte", base.replace(b"a corpus experiment", b"caf\xe9 experiment"), "not valid JSON")
    add("invalid-byte-ff", b"\xff" + base, "not valid JSON")
    add("overlong-utf8", base.replace(b"a corpus experiment", b"\xc0\xaf experiment"), "not valid JSON")
    add("lone-surrogate-utf8", base.replace(b"a corpus experiment", b"\xed\xa0\x80 experiment"), "not valid JSON")
    # Foundation's JSONDecoder reads UTF-16 (with or without BOM) and a UTF-8 BOM exactly: accepted.
    add("utf16le-bom", b"\xff\xfe" + base.decode().encode("utf-16-le"), "", code=0)
    add("utf16be", base.decode().encode("utf-16-be"), "", code=0)
    add("utf8-bom", b"\xef\xbb\xbf" + base, "", code=0)
    add("lone-surrogate-escape", base.replace(b"a corpus experiment", b"\\ud800 experiment"), "not valid JSON")
    add("nul-byte-raw-in-string", base.replace(b"a corpus experiment", b"a\x00corpus"), "not valid JSON")
    add("nul-byte-after-document", base + b"\x00", "not valid JSON")
    add("nul-bytes-only", b"\x00" * 4096, "not valid JSON")
    add("trailing-garbage", base + b"{}", "not valid JSON")
    add("two-documents", base + base, "not valid JSON")
    add("bom-then-truncated", b"\xef\xbb\xbf" + base[:100], "not valid JSON")
    add("comment", base.replace(b"{\n", b"{ // the store\n", 1), "not valid JSON")
    # Accepted by Foundation's JSONDecoder (a trailing comma loses nothing).
    add("trailing-comma", base.replace(b'"revision": 4\n', b'"revision": 4,\n'), "", code=0)
    add("single-quotes", base.replace(b'"schema_version"', b"'schema_version'"), "not valid JSON")
    add("nan-literal", base.replace(b'"revision": 4', b'"revision": NaN'), "not valid JSON")
    add("infinity-literal", base.replace(b'"weight": 30', b'"weight": Infinity'), "not valid JSON")
    # Not an object at the top.
    for name, data in (("root-array", b"[]"), ("root-null", b"null"), ("root-string", b'"experiments"'),
                       ("root-number", b"42"), ("root-true", b"true"), ("root-empty-object", b"{}")):
        add(name, data, "$")
    # Wrong types.
    add("schema-version-string", mutated(set_path(["schema_version"], "1")), "$.schema_version")
    add("revision-string", mutated(set_path(["revision"], "4")), "$.revision")
    add("revision-fraction", mutated(set_path(["revision"], 4.5)), "$.revision: 4.5 is not a whole number")
    add("experiments-object", mutated(set_path(["experiments"], {"e": {}})), "$.experiments")
    add("history-null", mutated(set_path(["history"], None)), "$.history")
    add("key-number", mutated(set_path(["experiments", 0, "key"], 5)), "$.experiments[0].key")
    add("status-unknown", mutated(set_path(["experiments", 0, "status"], "live")), "$.experiments[0].status")
    add("type-unknown", mutated(set_path(["experiments", 0, "type"], "group")), "$.experiments[0].type")
    add("weight-string", mutated(set_path(["experiments", 0, "variants", 0, "weight"], "50")), "$.experiments[0].variants[0].weight")
    add("weight-bool", mutated(set_path(["experiments", 0, "variants", 0, "weight"], True)), "$.experiments[0].variants[0].weight")
    add("range-bound-string", mutated(set_path(["experiments", 0, "variants", 0, "ranges"], [[0, "5000"]])), "$.experiments[0].variants[0].ranges")
    add("ranges-flat", mutated(set_path(["experiments", 0, "variants", 0, "ranges"], [0, 5000])), "$.experiments[0].variants[0].ranges")
    add("range-three-bounds", mutated(set_path(["experiments", 0, "variants", 0, "ranges"], [[0, 2500, 5000]])), "$.experiments[0].variants[0].ranges")
    add("range-fraction", mutated(set_path(["experiments", 0, "variants", 0, "ranges"], [[0, 4999.5]])), "$.experiments[0].variants[0].ranges[0][1]: 4999.5 is not")
    add("whitelist-object", mutated(set_path(["experiments", 0, "whitelist"], {"qa-1": "a"})), "$.experiments[0].whitelist")
    add("created-at-words", mutated(set_path(["experiments", 0, "created_at"], "yesterday")), "$.experiments[0].created_at")
    add("created-at-number", mutated(set_path(["experiments", 0, "created_at"], 1772359200)), "$.experiments[0].created_at")
    add("winner-number", mutated(set_path(["experiments", 1, "winner"], 5)), "$.experiments[1].winner")
    add("description-null", mutated(set_path(["experiments", 0, "description"], None)), "$.experiments[0].description")
    add("note-number", mutated(set_path(["experiments", 0, "whitelist", 0, "note"], 7)), "$.experiments[0].whitelist[0].note")
    add("added-at-bad", mutated(set_path(["experiments", 0, "whitelist", 0, "added_at"], "2026-13-45T99:00:00Z")), "$.experiments[0].whitelist[0].added_at")
    add("history-action-unknown", mutated(set_path(["history", 0, "action"], "Explode now")), "$.history[0].action")
    add("history-operator-empty", mutated(set_path(["history", 0, "operator"], "")), "$.history[0].operator")
    add("history-operator-escape", mutated(set_path(["history", 0, "operator"], "evil\u001b[2J")), "$.history[0].operator")
    # Missing fields.
    for field in ("schema_version", "revision", "experiments", "history"):
        add(f"missing-{field.replace('_', '-')}", mutated(delete_path([field])), f"`{field}`")
    for field in ("key", "type", "status", "salt", "control", "description", "revision", "created_at", "updated_at",
                  "updated_by", "variants", "whitelist"):
        add(f"missing-experiment-{field.replace('_', '-')}", mutated(delete_path(["experiments", 0, field])), f"`{field}`")
    for field in ("name", "weight", "ranges"):
        add(f"missing-variant-{field}", mutated(delete_path(["experiments", 0, "variants", 0, field])), f"`{field}`")
    for field in ("subject", "variant", "note", "added_by", "added_at"):
        add(f"missing-whitelist-{field.replace('_', '-')}", mutated(delete_path(["experiments", 0, "whitelist", 0, field])), f"`{field}`")
    for field in ("at", "operator", "experiment", "action"):
        add(f"missing-history-{field}", mutated(delete_path(["history", 0, field])), f"`{field}`")
    # Duplicates.
    add("duplicate-experiment-key", mutated(lambda d: d["experiments"].append(copy.deepcopy(d["experiments"][0]))),
        "experiment `e` is also at $.experiments[0]")
    add("duplicate-whitelist-subject", mutated(lambda d: e(d)["whitelist"].append(entry("qa-1", "b"))), "qa-1")
    add("duplicate-variant-name", mutated(set_path(["experiments", 0, "variants", 1, "name"], "a")), "used by another variant")
    # Refused: readers disagree on which of two members of one name counts (docs/hostile-input.md).
    add("duplicate-json-member", base.replace(b'"revision": 4', b'"revision": 4, "revision": 5'), 'repeated member "revision"')
    add("duplicate-json-member-nested", base.replace(b'"status": ', b'"status": "paused", "status": ', 1), 'repeated member "status"')
    # Ranges.
    add("ranges-overlap-across-variants", mutated(set_path(["experiments", 0, "variants", 1, "ranges"], [[4000, 7000]])), "overlaps")
    add("ranges-overlap-within-variant", mutated(set_path(["experiments", 0, "variants", 0, "ranges"], [[0, 3000], [2000, 4000]])), "overlaps")
    add("range-out-of-range", mutated(set_path(["experiments", 0, "variants", 1, "ranges"], [[7001, 10001]])), "within [0, 10000)")
    add("range-negative", mutated(set_path(["experiments", 0, "variants", 0, "ranges"], [[-1000, 4000]])), "within [0, 10000)")
    add("range-empty", mutated(set_path(["experiments", 0, "variants", 0, "ranges"], [[0, 5000], [6000, 6000]])), "non-empty range")
    add("range-reversed", mutated(set_path(["experiments", 0, "variants", 0, "ranges"], [[5000, 0]])), "non-empty range")
    add("ranges-fewer-than-weight", mutated(set_path(["experiments", 0, "variants", 0, "ranges"], [[0, 4000]])), "needs 5000")
    add("ranges-more-than-weight", mutated(set_path(["experiments", 0, "variants", 0, "weight"], 40)), "needs 4000")
    add("weights-over-100", mutated(lambda d: e(d)["variants"].append(variant("c", 30, [[8000, 10000], [0, 1000]]))), "over 100 %")
    add("weight-three-decimals", mutated(set_path(["experiments", 0, "variants", 1, "weight"], 30.005)), "at most two decimals")
    add("weight-negative", mutated(set_path(["experiments", 0, "variants", 1, "weight"], -30)), "0–100")
    add("weight-over-100", mutated(set_path(["experiments", 0, "variants", 0, "weight"], 100.01)), "0–100")
    # References.
    add("whitelist-missing-variant", mutated(set_path(["experiments", 0, "whitelist", 0, "variant"], "zzz")), "`zzz` is not one of the variants")
    add("winner-not-a-variant", mutated(set_path(["experiments", 1, "winner"], "zzz")), "`zzz` is not one of the variants")
    add("winner-on-running", mutated(set_path(["experiments", 0, "winner"], "a")), "only a resolved experiment has a winner")
    add("resolved-without-winner", mutated(set_path(["experiments", 1, "winner"], None)), "needs a winner")
    add("control-not-a-variant", mutated(set_path(["experiments", 0, "control"], "zzz")), "$.experiments[0].control")
    add("no-variants", mutated(set_path(["experiments", 0, "variants"], [])), "at least one variant")
    # Key, name, salt and subject rules.
    add("key-invalid", mutated(set_path(["experiments", 0, "key"], "Bad Key")), "key rule")
    add("key-too-long", mutated(set_path(["experiments", 0, "key"], "k" * 65)), "key rule")
    add("key-escape", mutated(set_path(["experiments", 0, "key"], "e\u001b[2J")), "key rule")
    add("variant-name-invalid", mutated(set_path(["experiments", 0, "variants", 1, "name"], "B!")), "name rule")
    add("salt-empty", mutated(set_path(["experiments", 0, "salt"], "")), "$.experiments[0].salt")
    add("salt-control", mutated(set_path(["experiments", 0, "salt"], "s\u0085")), "$.experiments[0].salt")
    add("subject-empty", mutated(set_path(["experiments", 0, "whitelist", 0, "subject"], "")), ".subject")
    add("subject-too-long", mutated(set_path(["experiments", 0, "whitelist", 0, "subject"], "s" * 257)), ".subject")
    add("subject-escape", mutated(set_path(["experiments", 0, "whitelist", 0, "subject"], "qa\u001b]0;owned\u0007")), ".subject")
    add("subject-newline", mutated(set_path(["experiments", 0, "whitelist", 0, "subject"], "qa\nfake line")), ".subject")
    add("experiment-revision-zero", mutated(set_path(["experiments", 0, "revision"], 0)), "$.experiments[0].revision")
    add("store-revision-negative", mutated(set_path(["revision"], -1)), "$.revision")
    # Schema versions.
    add("schema-version-2", mutated(set_path(["schema_version"], 2)), "schema version 2 is not supported")
    add("schema-version-0", mutated(set_path(["schema_version"], 0)), "schema version 0 is not supported")
    add("schema-version-2-other-shape", json.dumps({"schema_version": 2, "stores": []}).encode(), "schema version 2 is not supported")
    add("schema-version-huge", base.replace(b'"schema_version": 1', b'"schema_version": 99999999999999999999999'), "$.schema_version: 99999999999999999999999 is not a whole number")
    # Huge numbers.
    add("revision-int-max", mutated(set_path(["experiments", 0, "revision"], 2**63 - 1)), "$.experiments[0].revision: must be 1 to 9007199254740991")
    add("store-revision-int-max", mutated(set_path(["revision"], 2**63 - 1)), "$.revision: must be 0 to 9007199254740991")
    add("revision-beyond-int64", base.replace(b'"revision": 4', b'"revision": 9223372036854775808'), "$.revision: 9223372036854775808 is not a whole number")
    add("revision-1e400", base.replace(b'"revision": 4', b'"revision": 1e400'), "$")
    add("range-bound-huge", mutated(set_path(["experiments", 0, "variants", 0, "ranges"], [[0, 10**20]])), "$.experiments[0].variants[0].ranges[0][1]: 1")
    add("range-int-min-max", mutated(set_path(["experiments", 0, "variants", 0, "ranges"], [[-(2**63), 2**63 - 1]])), "within [0, 10000)")
    add("weight-1e308", mutated(set_path(["experiments", 0, "variants", 0, "weight"], 1e308)), "0–100")
    add("weight-tiny", mutated(set_path(["experiments", 0, "variants", 0, "weight"], 5e-324)), "at most two decimals")
    # Weights are compared exactly: not within 1e-6 of two decimals, and both readers agree on -1e-400.
    add("weight-near-two-decimals", base.replace(b'"weight": 30', b'"weight": 30.00000000001', 1), "at most two decimals")
    add("weight-underflow", base.replace(b'"weight": 30', b'"weight": -1e-400', 1), "$")
    add("payload-number-underflow", base.replace(b'"payload": null', b'"payload": [-1e-400]', 1), "$")
    add("payload-number-overflow", base.replace(b'"payload": null', b'"payload": {"n": 1e400}', 1), "$")
    # Impossible dates: Foundation's reader rolls them over, the store's reader refuses them.
    add("date-february-30", mutated(set_path(["experiments", 0, "created_at"], "2026-02-30T00:00:00Z")), "$.experiments[0].created_at")
    add("date-year-0000", mutated(set_path(["experiments", 0, "updated_at"], "0000-01-01T00:00:00Z")), "$.experiments[0].updated_at")
    add("date-second-60", mutated(set_path(["history", 0, "at"], "2026-01-01T00:00:60Z")), "$.history[0].at")
    add("date-year-huge", mutated(set_path(["experiments", 0, "created_at"], "99999999-01-01T00:00:00Z")), "$.experiments[0].created_at")
    # Deep nesting (10,000 levels) and absurd sizes.
    add("deep-nesting-payload-arrays", base.replace(b'"payload": null', b'"payload": ' + b"[" * 10_000 + b"]" * 10_000, 1),
        "$.experiments[0].variants[1].payload: nests 10000 levels")
    add("deep-nesting-payload-objects", base.replace(b'"payload": null', b'"payload": ' + b'{"a":' * 10_000 + b"1" + b"}" * 10_000, 1),
        "$.experiments[0].variants[1].payload: nests 10000 levels")
    add("deep-nesting-payload-65", base.replace(b'"payload": null', b'"payload": ' + b"[" * 65 + b"]" * 65, 1),
        "$.experiments[0].variants[1].payload: nests 65 levels")
    add("deep-nesting-root", b"[" * 10_000 + b"]" * 10_000, "nests")
    add("deep-nesting-unclosed", b'{"experiments":' + b"[" * 100_000, "not valid JSON")
    add("many-experiments-invalid", mutated(lambda d: d["experiments"].extend(
        dict(experiment(f"x{i:05d}"), revision=0) for i in range(2_000))), "problems")
    return cases


def generated_cases():
    """Stores too large to commit, described by a prefix, a repeated unit and a suffix."""
    base = text(BASE)
    head, tail = base.split('"a corpus experiment"', 1)
    return [
        # 50 MB of "A" in a description: valid JSON, a valid store — readable, just big; and the same
        # 50 MB string as an experiment key, which the key rule refuses.
        ("huge-string-50mb-key", {"prefix": base.split('"key": "e"', 1)[0] + '"key": "', "unit": "k", "count": 50 * 1024 * 1024,
                                  "suffix": '"' + base.split('"key": "e"', 1)[1], "code": 65, "phrase": "key rule"}),
        ("huge-string-50mb-unterminated", {"prefix": head + '"', "unit": "A", "count": 50 * 1024 * 1024, "suffix": "",
                                           "code": 65, "phrase": "not valid JSON"}),
        ("huge-description-50mb", {"prefix": head + '"', "unit": "A", "count": 50 * 1024 * 1024, "suffix": '"' + tail,
                                   "code": 0, "phrase": "", "read_only": True}),
    ]


def csv_cases():
    """(name, bytes, phrase): imports into experiment `e` of base.json, all refused with 65."""
    too_long_note = "n" * 10_001
    return [
        ("unclosed-quote", b'subject,variant\nqa-3,a\n"qa-4,b\nqa-5,a\n', "never closed"),
        ("unclosed-quote-at-eof", b'qa-3,a\nqa-4,"b', "never closed"),
        ("too-many-fields", b"qa-3,a,note,extra\n", "found 4 fields"),
        ("one-field", b"qa-3\n", "found 1 field"),
        ("unknown-variant", b"qa-3,a\nqa-4,zzz\n", "no variant `zzz`"),
        ("duplicate-subject", b"qa-3,a\nqa-4,b\nqa-3,b\n", "already listed on line 1"),
        ("duplicate-subject-quoted", b'subject,variant\n"qa-3",a\nqa-3,b\n', "already listed"),
        ("control-char-subject-escape", b"qa-3,a\nqa\x1b[2J,b\n", "line 2"),
        ("control-char-subject-tab", b"qa\t3,a\n", "line 1"),
        ("control-char-subject-c1", "qa\u0085,a\n".encode(), "line 1"),
        ("control-char-subject-del", b"qa\x7f,a\n", "line 1"),
        ("control-char-subject-nul", b"qa\x00,a\n", "line 1"),
        ("control-char-subject-cr", b'"qa\r3",a\n', "line 1"),
        ("newline-in-quoted-subject", b'"qa\n3",a\n', "line 1"),
        ("not-utf8", b"qa-3,a\nqa-\xff,b\n", "line 2: the file is not UTF-8"),
        ("utf16le", "\ufeffqa-3,a\n".encode("utf-16-le"), "not UTF-8"),
        ("empty", b"", "no rows"),
        ("header-only", b"subject,variant,note\n", "no rows"),
        ("blank-lines-only", b"\n\n\r\n\n", "no rows"),
        ("quote-inside-unquoted", b'qa"3,a\n', "quote inside an unquoted field"),
        ("text-after-closing-quote", b'"qa-3"x,a\n', "after a closing quote"),
        ("subject-too-long", ("s" * 257 + ",a\n").encode(), "line 1"),
        ("subject-empty", b",a\n", "line 1"),
        ("variant-empty", b"qa-3,\n", "no variant ``"),
        ("note-too-long", f"qa-3,a,{too_long_note}\n".encode(), "longer than"),
        ("cr-only-line-endings", b"qa-3,a\rqa-4,b\r", "line 1"),
        ("header-in-the-middle", b"qa-3,a\nsubject,variant\n", "no variant `variant`"),
        ("semicolon-separated", b"qa-3;a\n", "found 1 field"),
        # Two spreadsheet exports joined with `cat` carry the second one's BOM into a subject id.
        ("bom-joined-by-cat", b"\xef\xbb\xbfsubject,variant\nqa-3,a\n\xef\xbb\xbfqa-8,b\n", "line 3"),
        ("bom-inside-subject", "qa-3,a\nqa\ufeff-4,b\n".encode(), "line 2"),
        ("bom-quoted-subject", '"\ufeffqa-3",a\n'.encode(), "line 1"),
        ("zero-width-space-subject", "qa\u200b3,a\n".encode(), "line 1"),
        ("combining-accents-3000", ("a" + "\u0301" * 3000 + ",a\n").encode(), "line 1"),
    ]


def args_cases():
    """Bad arguments, subject ids and environment settings, run against base.json."""
    long_subject = "u" * 257
    cases = [
        ("unknown-command", ["frobnicate"], 64, "frobnicate"),
        ("unknown-option", ["list", "--frob"], 64, "--frob"),
        ("unknown-global-option", ["--frob", "list"], 64, "--frob"),
        ("missing-argument", ["show"], 64, "EXP"),
        ("extra-argument", ["show", "e", "extra"], 64, "extra"),
        ("store-without-value", ["--store"], 64, "--store"),
        ("operator-without-value", ["list", "--operator"], 64, "--operator"),
        ("json-on-a-command-without-it", ["start", "e", "--json"], 64, "--json"),
        ("whitelist-alone", ["whitelist"], 64, "whitelist"),
        ("whitelist-unknown-subcommand", ["whitelist", "frob", "e"], 64, "add, note, remove, list, import"),
        ("ramp-without-weights", ["ramp", "e"], 64, "NAME=PCT"),
        ("ramp-weight-not-a-number", ["ramp", "e", "a=abc"], 65, "abc"),
        ("ramp-weight-three-decimals", ["ramp", "e", "a=33.333"], 65, "two decimals"),
        ("ramp-weight-over-100", ["ramp", "e", "a=101"], 65, "101"),
        ("ramp-weights-sum-over-100", ["ramp", "e", "a=60", "b=50"], 65, "110"),
        ("ramp-weight-negative", ["ramp", "e", "a=-5"], 65, "-5"),
        ("ramp-weight-double-equals", ["ramp", "e", "a=50=50"], 65, "50=50"),
        ("ramp-no-equals", ["ramp", "e", "a"], 64, "NAME=PCT"),
        ("ramp-unknown-variant", ["ramp", "e", "zzz=10"], 65, "zzz"),
        ("ramp-resolved", ["ramp", "r", "a=10"], 65, "resolved"),
        ("create-bad-type", ["create", "n", "--type", "group", "--variants", "a=50"], 64, "--type"),
        ("create-bad-variants", ["create", "n", "--type", "user", "--variants", "a:50"], 64, "a:50"),
        ("create-bad-key", ["create", "Bad Key", "--type", "user", "--variants", "a=50"], 65, "not a valid experiment key"),
        ("create-existing", ["create", "e", "--type", "user", "--variants", "a=50"], 65, "already exists"),
        ("create-missing-type", ["create", "n", "--variants", "a=50"], 64, "--type"),
        ("show-unknown", ["show", "nope"], 65, "no experiment `nope`"),
        ("show-bad-key-escape", ["show", "e\u001b[2J"], 65, "no experiment"),
        ("set-payload-bad-json", ["set-payload", "e", "a", "{not json"], 65, "not valid JSON"),
        ("delete-running", ["delete", "e"], 65, "only drafts"),
        ("resolve-unknown-variant", ["resolve", "e", "zzz"], 65, "zzz"),
        ("start-resolved", ["start", "r"], 65, "its status can no longer change"),
        ("status-filter-unknown", ["list", "--status", "live"], 64, "live"),
        ("lock-timeout-not-a-number", ["list"], 64, "ABCONSOLE_LOCK_TIMEOUT", {"ABCONSOLE_LOCK_TIMEOUT": "soon"}),
        ("lock-timeout-negative", ["list"], 64, "ABCONSOLE_LOCK_TIMEOUT", {"ABCONSOLE_LOCK_TIMEOUT": "-1"}),
        ("now-not-a-date", ["list"], 64, "ABCONSOLE_NOW", {"ABCONSOLE_NOW": "tomorrow"}),
        ("operator-escape", ["whitelist", "add", "e", "qa-9", "a", "--operator", "evil\u001b[2J"], 65, "operator"),
        ("operator-empty-env", ["whitelist", "add", "e", "qa-9", "a"], 65, "operator", {"ABCONSOLE_OPERATOR": "x\n"}),
        ("store-missing", ["--store", "{dir}/nowhere.json", "list"], 66, "no store"),
        ("store-missing-mutation", ["--store", "{dir}/nowhere.json", "whitelist", "add", "e", "qa-9", "a"], 66, "no store"),
        ("store-is-a-directory", ["--store", "{dir}", "list"], 66, "cannot read"),
        ("store-in-missing-directory", ["--store", "{dir}/no/such/dir/s.json", "create", "n", "--type", "user", "--variants", "a=50"], 73, "cannot create"),
        ("import-missing-file", ["whitelist", "import", "e", "{dir}/nowhere.csv"], 66, "nowhere.csv"),
        ("import-directory", ["whitelist", "import", "e", "{dir}"], 66, "cannot"),
        ("assign-without-experiments", ["assign", "--user", "u1"], 64, "EXP"),
        ("assign-subjects-missing-file", ["assign", "e", "--subjects", "{dir}/nowhere.txt"], 66, "nowhere.txt"),
        # Bad subject ids.
        ("subject-empty", ["whitelist", "add", "e", "", "a"], 65, "subject id"),
        ("subject-too-long", ["whitelist", "add", "e", long_subject, "a"], 65, "subject id"),
        ("subject-escape", ["whitelist", "add", "e", "qa\u001b[2J", "a"], 65, "subject id"),
        ("subject-osc-title", ["whitelist", "add", "e", "qa\u001b]0;owned\u0007", "a"], 65, "subject id"),
        ("subject-newline", ["whitelist", "add", "e", "qa\nfake", "a"], 65, "subject id"),
        ("subject-tab", ["whitelist", "add", "e", "qa\t1", "a"], 65, "subject id"),
        ("subject-c1-csi", ["whitelist", "add", "e", "qa\u009b2J", "a"], 65, "subject id"),
        ("subject-del", ["whitelist", "add", "e", "qa\u007f", "a"], 65, "subject id"),
        ("subject-remove-escape", ["whitelist", "remove", "e", "qa\u001b[2J"], 65, "qa"),
        ("inspect-subject-escape", ["inspect", "--user", "u\u001b[2J"], 65, "subject id"),
        ("inspect-subject-too-long", ["inspect", "--user", long_subject], 65, "subject id"),
        ("assign-subject-escape", ["assign", "e", "--user", "u\u001b[2J"], 65, "subject id"),
        ("assign-device-empty", ["assign", "e", "--device", ""], 65, "subject id"),
        ("assign-batch-subject-escape", ["assign", "e", "--subjects", "-"], 65, "subject id", None, "ok-1\nu\u001b[2J\n"),
        # Settings that read as numbers or dates but are not usable ones.
        ("lock-timeout-inf", ["list"], 64, "ABCONSOLE_LOCK_TIMEOUT", {"ABCONSOLE_LOCK_TIMEOUT": "inf"}),
        ("lock-timeout-1e309", ["list"], 64, "ABCONSOLE_LOCK_TIMEOUT", {"ABCONSOLE_LOCK_TIMEOUT": "1e309"}),
        ("lock-timeout-nan", ["list"], 64, "ABCONSOLE_LOCK_TIMEOUT", {"ABCONSOLE_LOCK_TIMEOUT": "nan"}),
        ("now-february-30", ["whitelist", "add", "e", "qa-9", "a"], 64, "ABCONSOLE_NOW", {"ABCONSOLE_NOW": "2026-02-30T10:00:00Z"}),
        ("now-year-0000", ["whitelist", "add", "e", "qa-9", "a"], 64, "ABCONSOLE_NOW", {"ABCONSOLE_NOW": "0000-01-01T00:00:00Z"}),
        ("now-hour-24", ["whitelist", "add", "e", "qa-9", "a"], 64, "ABCONSOLE_NOW", {"ABCONSOLE_NOW": "2026-03-01T24:00:00Z"}),
        ("store-empty-path", ["--store", "", "whitelist", "add", "e", "qa-9", "a"], 64, "--store"),
        # Invisible characters and length in scalars (a BOM is dropped only at the start of an input).
        ("subject-bom", ["whitelist", "add", "e", "\ufeffqa-9", "a"], 65, "\\u{feff}qa-9"),
        ("subject-zero-width-space", ["whitelist", "add", "e", "qa\u200b9", "a"], 65, "\\u{200b}"),
        ("subject-combining-3000", ["whitelist", "add", "e", "a" + "\u0301" * 3000, "a"], 65, "subject id"),
        ("assign-user-bom", ["assign", "e", "--user", "\ufeffuser-1"], 65, "\\u{feff}user-1"),
        ("assign-batch-bom-inside", ["assign", "e", "--subjects", "-"], 65, "line 2", None, "ok-1\n\ufeffok-2\n"),
        ("salt-bom", ["create", "n", "--type", "user", "--variants", "a=50", "--salt", "\ufeffs"], 65, "salt"),
    ]
    out = []
    for case in cases:
        name, args, code, phrase = case[:4]
        env = case[4] if len(case) > 4 else None
        stdin = case[5] if len(case) > 5 else None
        item = {"name": name, "args": args, "code": code, "phrase": phrase}
        if env:
            item["env"] = env
        if stdin is not None:
            item["stdin"] = stdin
        out.append(item)
    return out


def exposure_row(subject, variant_name="a", at="2026-03-01T11:00:00Z", **extra):
    row = {"timestamp": at, "experiment": "e", "variant": variant_name, "subject": subject}
    row.update(extra)
    return json.dumps(row, separators=(",", ":"))


def log_cases():
    """(name, role, file name, bytes, code, phrase): `results e` with one hostile log (the other valid).

    role is exposures, conversions or summary; a phrase holding `{file}` names the log's path. Every
    refusal must start `abconsole: FILE:LINE: ` and name the field where one is at fault.
    """
    rows = "".join(exposure_row(f"u{i}", "a" if i % 2 else "b") + "\n" for i in range(20)).encode()
    csv_rows = b"timestamp,experiment,variant,subject\n" + b"".join(
        f"2026-03-01T11:00:00Z,e,{'a' if i % 2 else 'b'},u{i}\n".encode() for i in range(20))
    last = exposure_row("late").encode()
    return [
        # A logger still writing its last line: ignored with a note; a whole last line counts.
        ("jsonl-partial-last-line", "exposures", "x.jsonl", rows + last[:37], 0, "{file}:21: the last line is incomplete (being written?)"),
        ("jsonl-whole-last-line-no-newline", "exposures", "x.jsonl", rows + last, 0, "21 analysed"),
        ("csv-partial-last-line", "exposures", "x.csv", csv_rows + b"2026-03-01T11:00:00Z,e,", 0, "{file}:22: the last line is incomplete"),
        ("jsonl-partial-line-in-the-middle", "exposures", "x.jsonl", last[:37] + b"\n" + rows, 65, "{file}:1: "),
        # CSV headers.
        ("csv-duplicate-column", "exposures", "x.csv", b"timestamp,experiment,subject,variant,subject\n", 65, "{file}:1: the header names the column `subject` twice"),
        ("csv-empty", "exposures", "x.csv", b"", 65, "{file}:1: the file is empty: no header"),
        ("csv-blank-lines-only", "conversions", "x.csv", b"\n \n\r\n", 65, "{file}:1: only blank lines: no header"),
        ("csv-bom-quoted-header", "exposures", "x.csv", b'\xef\xbb\xbf"timestamp","experiment","variant","subject"\n2026-03-01T11:00:00Z,e,a,u1\n', 0, "1 analysed"),
        ("csv-spaces-around-values", "exposures", "x.csv", b"timestamp , experiment,variant,subject\n 2026-03-01T11:00:00Z , e ,\ta\t, u1\n", 0, "1 analysed"),
        ("csv-missing-column", "exposures", "x.csv", b"timestamp,experiment,subject\n", 65, "{file}:1: field `variant`: the header has no `variant` column"),
        ("csv-quote-inside-unquoted", "exposures", "x.csv", csv_rows + b'2026-03-01T11:00:00Z,e,a,u"1\n', 65, "{file}:22: field `subject`: a quote inside an unquoted field"),
        ("csv-too-few-fields", "exposures", "x.csv", csv_rows + b"2026-03-01T11:00:00Z,e,a\n", 65, "{file}:22: field `subject`: the row has 3 fields"),
        ("csv-bad-value", "conversions", "x.csv", b"timestamp,subject,metric,value\n2026-03-01T11:00:00Z,u1,buy,1e+-.\n", 65, "{file}:2: field `value`: expected a number"),
        # JSON Lines: numbers are JSON numbers, strings are closed, a row is one object.
        ("jsonl-bad-number", "exposures", "x.jsonl", rows + exposure_row("u1")[:-1].encode() + b',"junk":1e+-.}\n', 65, "{file}:21: field `junk`: `1e+-.` is not a valid JSON number"),
        ("jsonl-subject-not-a-number", "exposures", "x.jsonl", b'{"timestamp":"2026-03-01T11:00:00Z","experiment":"e","variant":"a","subject":--1-}\n', 65, "{file}:1: field `subject`: `--1-` is not a valid JSON number"),
        ("jsonl-leading-zero-value", "conversions", "x.jsonl", b'{"timestamp":"2026-03-01T11:00:00Z","subject":"u1","metric":"buy","value":012}\n', 65, "{file}:1: field `value`: `012` is not a valid JSON number"),
        ("jsonl-not-an-object", "exposures", "x.jsonl", b"[1,2]\n", 65, "{file}:1: expected a JSON object"),
        ("jsonl-unclosed-string-mid-file", "exposures", "x.jsonl", b'{"timestamp":"2026-03-01T11:00:00Z","subject":"u1\n' + rows, 65, "{file}:1: field `subject`: a string is not closed on its line"),
        ("jsonl-control-character", "exposures", "x.jsonl", b'{"timestamp":"2026-03-01T11:00:00Z","experiment":"e","variant":"a","subject":"u\x01"}\n', 65, "{file}:1: field `subject`: a control character inside a string"),
        ("jsonl-bad-timestamp", "exposures", "x.jsonl", exposure_row("u1", at="2026-02-30T10:00:00Z").encode() + b"\n", 65, "{file}:1: field `timestamp`: day 30 does not exist"),
        ("jsonl-deep-nesting", "exposures", "x.jsonl", exposure_row("u1")[:-1].encode() + b',"junk":' + b"[" * 5000 + b"]" * 5000 + b"}\n", 65, "{file}:1: field `junk`: nested too deeply"),
        ("jsonl-subject-twice", "exposures", "x.jsonl", exposure_row("u1")[:-1].encode() + b',"subject":"u2"}\n', 65, "{file}:1: field `subject`: given twice in the row"),
        ("jsonl-utf16", "exposures", "x.jsonl", (exposure_row("u1") + "\n").encode("utf-16-le"), 65, "{file}:1: "),
        # A summary is CSV, with each column once.
        ("summary-named-jsonl", "summary", "x.jsonl", b"metric,type,variant,subjects,sum,sum_squares\n", 64, "{file}: a summary is a CSV file"),
        ("summary-duplicate-column", "summary", "x.csv", b"metric,type,variant,subjects,sum,sum_squares,sum\n", 65, "{file}:1: the header names the column `sum` twice"),
        ("summary-empty", "summary", "x.csv", b"", 65, "{file}:1: the file is empty: no header"),
    ]


def snapshot_cases():
    """(name, kind, bytes, phrase): `client-example --snapshot PATH`; each serves defaults (exit 0) within seconds.

    kind file is the bytes given; fifo, directory and device (/dev/null) are made by the runner.
    """
    client = {"format": "abconsole-client", "schema_version": 1, "revision": 4, "experiments": []}
    growthbook = {"features": {"e": {"defaultValue": "a", "rules": [{"key": "e", "variations": ["a", "b"], "weights": [0.5, 0.3],
                                                                     "coverage": 0.8, "hashAttribute": "id", "seed": "e", "hashVersion": 2}]}}}
    return [
        ("fifo", "fifo", b"", "is a FIFO (named pipe), not a snapshot file"),
        ("directory", "directory", b"", "is a directory, not a snapshot file"),
        ("device", "device", b"", "is a device, not a snapshot file"),
        ("growthbook-format", "file", json.dumps(growthbook).encode(), "this is a GrowthBook export, for GrowthBook SDKs; give the client `abconsole export --format client`"),
        ("truncated-store", "file", text(BASE).encode()[:300], "not a JSON object (truncated or not JSON)"),
        ("truncated-client", "file", json.dumps(client).encode()[:40], "not a JSON object (truncated or not JSON)"),
        ("empty", "file", b"", "the file is empty"),
        ("unknown-format", "file", json.dumps(dict(client, format="something-else")).encode(), "unknown format `something-else`"),
        ("future-schema", "file", json.dumps(dict(client, schema_version=99)).encode(), "schema version 99 is not supported"),
        ("repeated-member", "file", json.dumps(client).encode().replace(b'"revision": 4', b'"revision": 3, "revision": 4'),
         'not a valid client snapshot: $.revision: repeated member "revision"'),
        ("repeated-member-store", "file", text(BASE).encode().replace(b'"revision": 4', b'"revision": 3, "revision": 4'),
         'not a valid store: $.revision: repeated member "revision"'),
    ]


def events_cases():
    """Hostile event logs and `--summary` files for `results e` against base.json.

    Each case names its files: text, `{"prefix", "unit", "count"}` or `{"template", "count"}` (line
    `i` of `count`, `{i}` and `{s}` = i mod 20 filled in) expanded by the runner, `{"fifo": true}`,
    `{"directory": true}` or `{"link": PATH}`. Expected: the exit code and phrase; no exit of 128 or
    more, no hang, no `inf`/`nan` anywhere; a refused row names file and line (`FILE:LINE:`).
    """
    at = "2026-03-01T10:30:00Z"
    exposures = "".join(json.dumps({"timestamp": at, "experiment": "e", "variant": "ab"[i % 2], "subject": f"u{i}"}) + "\n"
                        for i in range(20))

    def conversion(subject, metric, value=None):
        row = {"timestamp": "2026-03-01T11:00:00Z", "subject": subject, "metric": metric}
        if value is not None:
            row["value"] = value
        return json.dumps(row) + "\n"

    buys = "".join(conversion(f"u{i}", "buy") for i in range(0, 20, 3))
    header = "metric,type,variant,subjects,sum,sum_squares\n"

    def summary(*rows):
        return header + "buy,proportion,b,20,5,5\n" + "".join(row + "\n" for row in rows)

    offset = [1e13 + i * 1000 for i in range(10)]
    offset_sum, offset_squares = 0.0, 0.0
    for value in offset:
        offset_sum += value
        offset_squares += value * value
    logs = {"exposures.jsonl": exposures, "conversions.jsonl": buys}
    results = ["results", "e", "--exposures", "exposures.jsonl", "--conversions", "conversions.jsonl"]
    cases = [
        # 1: counts each valid whose total passes Int.max (or past what a number counts exactly).
        ("summary-subjects-past-int-max", {"s.csv": header + "buy,proportion,a,5000000000000000000,1,1\nbuy,proportion,b,5000000000000000000,1,1\n"},
         ["results", "e", "--summary", "s.csv"], 65, "s.csv:2: field `subjects`"),
        ("summary-subjects-2-pow-53", {"s.csv": header + "buy,proportion,a,9007199254740992,1,1\nbuy,proportion,b,9007199254740992,1,1\n"},
         ["results", "e", "--summary", "s.csv", "--json"], 0, ""),
        # 2: conversion windows past 64 bits of nanoseconds.
        ("conversion-window-1e300", logs, results + ["--conversion-window", "1e300"], 64, "--conversion-window"),
        ("conversion-window-2500000", logs, results + ["--conversion-window", "2500000"], 0, ""),
        # 3: clocks outside 1678–2261.
        ("now-2262-04-12", logs, results + ["--json"], 0, "", {"ABCONSOLE_NOW": "2262-04-12T00:00:00Z"}),
        ("now-9999", logs, results, 0, "", {"ABCONSOLE_NOW": "9999-12-31T23:59:59Z"}),
        # 4: endless lines and devices.
        ("exposures-line-past-16-mib", {"exposures.jsonl": {"prefix": exposures, "unit": "x", "count": (16 << 20) + 1},
                                        "conversions.jsonl": buys}, results, 65, "exposures.jsonl:21: the line is longer than 16 MiB"),
        ("exposures-dev-zero", {"exposures.jsonl": {"link": "/dev/zero"}, "conversions.jsonl": buys}, results, 66, "it is a device"),
        # 5: many distinct metric names.
        ("conversions-10000-metric-names", {"exposures.jsonl": exposures,
                                            "conversions.jsonl": {"template": conversion("u{s}", "m{i}"), "count": 10_000}},
         results + ["--metric", "m9999"], 0, ""),
        # 6: FIFOs block nothing.
        ("conversions-fifo", {"exposures.jsonl": exposures, "conversions.jsonl": {"fifo": True}}, results, 66, "it is a FIFO"),
        ("summary-fifo", {"s.csv": {"fifo": True}}, ["results", "e", "--summary", "s.csv"], 66, "it is a FIFO"),
        # Other readers of user-named files: a device never ends, so it is refused unread.
        ("whitelist-import-dev-zero", {}, ["whitelist", "import", "e", "/dev/zero"], 66, "it is a device"),
        ("assign-subjects-dev-zero", {}, ["assign", "e", "--subjects", "/dev/zero"], 66, "it is a device"),
        # 9: sums past the Double range.
        ("values-sum-past-double", {"exposures.jsonl": exposures, "conversions.jsonl": buys + "".join(conversion(f"u{i}", "amount", 1e308) for i in (0, 2, 4))},
         results, 65, "conversions.jsonl:10: field `value`"),
        ("values-sum-past-double-json", {"exposures.jsonl": exposures, "conversions.jsonl": buys + "".join(conversion(f"u{i}", "amount", 1e308) for i in (0, 2, 4))},
         results + ["--json"], 65, "conversions.jsonl:10: field `value`"),
        ("subject-value-past-double", {"exposures.jsonl": exposures, "conversions.jsonl": buys + conversion("u0", "amount", 1.5e308) * 2},
         results, 65, "conversions.jsonl:9: field `value`"),
        ("value-square-past-double", {"exposures.jsonl": exposures, "conversions.jsonl": buys + conversion("u0", "amount", 1e300)},
         results, 65, "conversions.jsonl:8: field `value`"),
        # 10: impossible summary rows.
        ("summary-fractional-conversions", {"s.csv": summary("buy,proportion,a,20,10.5,10.5")}, ["results", "e", "--summary", "s.csv"], 65, "s.csv:3: field `sum`"),
        ("summary-proportion-squares", {"s.csv": summary("buy,proportion,a,20,7,9")}, ["results", "e", "--summary", "s.csv"], 65, "s.csv:3: field `sum_squares`"),
        ("summary-150-of-100", {"s.csv": summary("buy,proportion,a,100,150,150")}, ["results", "e", "--summary", "s.csv"], 65, "s.csv:3: field `sum`"),
        ("summary-negative-conversions", {"s.csv": summary("buy,proportion,a,100,-5,-5")}, ["results", "e", "--summary", "s.csv"], 65, "s.csv:3: field `sum`"),
        ("summary-squares-below-mean", {"s.csv": header + "rev,mean,a,10,100,500\n"}, ["results", "e", "--summary", "s.csv"], 65, "s.csv:2: field `sum_squares`"),
        ("summary-no-subjects-a-sum", {"s.csv": header + "rev,mean,a,0,5,25\n"}, ["results", "e", "--summary", "s.csv"], 65, "s.csv:2: field `sum`"),
        # 11: a spread the sums cannot carry, and the same values from raw logs.
        ("summary-offset-1e13", {"s.csv": header + f"rev,mean,a,10,{offset_sum!r},{offset_squares!r}\n"}, ["results", "e", "--summary", "s.csv"], 65,
         "s.csv:2: field `sum_squares`"),
        ("values-offset-1e13", {"exposures.jsonl": exposures,
                                "conversions.jsonl": "".join(conversion(f"u{i}", "rev", 1e13 + (i // 2) * (1000 if i % 2 == 0 else 1100)) for i in range(20))},
         results, 0, "", {}, "do not vary"),
    ]
    out = []
    for case in cases:
        name, files, args, code, phrase = case[:5]
        item = {"name": name, "files": files, "args": args, "code": code, "phrase": phrase}
        if len(case) > 5 and case[5]:
            item["env"] = case[5]
        if len(case) > 6:
            item["absent"] = case[6]
        out.append(item)
    return out


def main():
    for folder in ("stores", "csv"):
        shutil.rmtree(os.path.join(CORPUS, folder), ignore_errors=True)
        os.makedirs(os.path.join(CORPUS, folder))
    os.makedirs(os.path.join(CORPUS, "fuzz-found"), exist_ok=True)
    with open(os.path.join(CORPUS, "base.json"), "w") as handle:
        handle.write(text(BASE))
    manifest = {"stores": {}, "csv": {}}
    for name, data, code, phrase in store_cases():
        with open(os.path.join(CORPUS, "stores", name + ".json"), "wb") as handle:
            handle.write(data)
        manifest["stores"][name + ".json"] = {"code": code, "phrase": phrase}
    for name, spec in generated_cases():
        expectation = {"code": spec.pop("code"), "phrase": spec.pop("phrase")}
        if spec.pop("read_only", False):
            expectation["read_only"] = True
        with open(os.path.join(CORPUS, "stores", name + ".gen.json"), "w") as handle:
            json.dump(spec, handle, indent=2, ensure_ascii=False)
            handle.write("\n")
        manifest["stores"][name + ".gen.json"] = expectation
    for name, data, phrase in csv_cases():
        with open(os.path.join(CORPUS, "csv", name + ".csv"), "wb") as handle:
            handle.write(data)
        manifest["csv"][name + ".csv"] = {"code": 65, "phrase": phrase}
    with open(os.path.join(CORPUS, "manifest.json"), "w") as handle:
        json.dump(manifest, handle, indent=1, sort_keys=True, ensure_ascii=False)
        handle.write("\n")
    # Event logs and client snapshots (scripts/reliability/corpus_inputs.py replays them).
    inputs = {"logs": [], "snapshots": []}
    for folder in ("logs", "snapshots"):
        shutil.rmtree(os.path.join(CORPUS, folder), ignore_errors=True)
        os.makedirs(os.path.join(CORPUS, folder))
    for name, role, file_name, data, code, phrase in log_cases():
        stored = name + os.path.splitext(file_name)[1]
        with open(os.path.join(CORPUS, "logs", stored), "wb") as handle:
            handle.write(data)
        inputs["logs"].append({"name": name, "role": role, "file": stored, "code": code, "phrase": phrase})
    for name, kind, data, phrase in snapshot_cases():
        entry_ = {"name": name, "kind": kind, "phrase": phrase}
        if kind == "file":
            entry_["file"] = name + ".json"
            with open(os.path.join(CORPUS, "snapshots", entry_["file"]), "wb") as handle:
                handle.write(data)
        inputs["snapshots"].append(entry_)
    with open(os.path.join(CORPUS, "inputs.json"), "w") as handle:
        json.dump(inputs, handle, indent=1, ensure_ascii=False)
        handle.write("\n")
    with open(os.path.join(CORPUS, "args.json"), "w") as handle:
        json.dump(args_cases(), handle, indent=1, ensure_ascii=False)
        handle.write("\n")
    with open(os.path.join(CORPUS, "events.json"), "w") as handle:
        json.dump(events_cases(), handle, indent=1, ensure_ascii=False)
        handle.write("\n")
    total = len(manifest["stores"]) + len(manifest["csv"]) + len(args_cases())
    print(f"corpus: {len(manifest['stores'])} stores, {len(manifest['csv'])} CSV imports, {len(args_cases())} argument cases ({total} in all)")


if __name__ == "__main__":
    import sys
    if sys.argv[1:] == ["--events-only"]:
        with open(os.path.join(CORPUS, "events.json"), "w") as handle:
            json.dump(events_cases(), handle, indent=1, ensure_ascii=False)
            handle.write("\n")
    else:
        main()
