#!/usr/bin/env python3
"""`abconsole export --format growthbook`, evaluated by GrowthBook's own Python SDK.

For random valid stores (1-4 variants owning several ranges each after "ramps", unallocated
buckets, whitelists, every status, GrowthBook-style salts) the exported payload, evaluated by the
stock SDK (`pip install growthbook`), must give every ASCII subject the variant `abconsole assign`
gives it: with both attributes (`id` and `deviceId`), with only one, with neither, and with a
different user and device id. With `--values payloads` each feature's value must be the payload of
that variant when all of the experiment's variants carry one, else its name (stores mix both).
`--no-whitelist` must give the export of the same store without whitelists (the SDK agreeing with
`assign` on that store), and only without it does stderr say, once, that whitelisted ids ship.
Also checked: deterministic bytes, `--out` equal to stdout, `export EXP ...` (only those, the
store's `dateUpdated`), the refusals (invalid store, an experiment with payloads on some variants
but not all, an unknown key: exit 65) and the non-ASCII warning.

    python3 Tests/export/growthbook_export.py --bin .build/debug/abconsole [--stores 30] [--seed 1]

The last line is always `growthbook export: N passed, M failed`; exit 0 only when M == 0. A
missing `growthbook` package is a failure, not a skip.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import string
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True

BUCKETS = 10000
ID_CHARS = string.ascii_letters + string.digits + "-_.@:+()*%$#!~"
SALT_CHARS = ID_CHARS + " ()**(%$##$%#$#"


class Report:
    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0
        self.failures: list[str] = []

    def check(self, ok: bool, what) -> bool:
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            if len(self.failures) < 50:
                self.failures.append(what() if callable(what) else what)
        return ok

    def finish(self) -> int:
        for failure in self.failures[:20]:
            print(f"FAIL: {failure}")
        print(f"growthbook export: {self.passed} passed, {self.failed} failed")
        return 0 if self.failed == 0 else 1


def random_id(rng: random.Random) -> str:
    if rng.random() < 0.2:
        return str(rng.randint(0, 10**9))
    return "".join(rng.choice(ID_CHARS) for _ in range(rng.randint(1, 24)))


def random_payload(rng: random.Random):
    kind = rng.randrange(5)
    if kind == 0:
        return {"color": "#%06x" % rng.randrange(1 << 24), "size": rng.randint(1, 40)}
    if kind == 1:
        return rng.randint(-1000, 1000)
    if kind == 2:
        return "copy-" + random_id(rng)
    if kind == 3:
        return [rng.randint(0, 9) for _ in range(rng.randint(0, 3))]
    return rng.random() < 0.5


def random_experiment(rng: random.Random, key: str, pool: list[str], payloads: bool, salt: str | None = None) -> dict:
    count = rng.randint(1, 4)
    names = rng.sample(["control", "a", "b", "green", "blue", "on", "off", "treatment", "v2"], count)
    # Ramped layout: the buckets cut into segments, each owned by a variant or unallocated.
    cuts = sorted(rng.sample(range(1, BUCKETS), rng.randint(0, 9)))
    bounds = [0] + cuts + [BUCKETS]
    ranges: dict[str, list[list[int]]] = {name: [] for name in names}
    for start, end in zip(bounds, bounds[1:]):
        owner = rng.randrange(count + 1) - 1 if rng.random() < 0.8 else -1
        if owner < 0:
            continue
        owned = ranges[names[owner]]
        if owned and owned[-1][1] == start:
            owned[-1][1] = end
        else:
            owned.append([start, end])
    status = rng.choice(["draft", "running", "running", "paused", "resolved"])
    control = rng.choice(names)
    if count > 1 and rng.random() < 0.2:
        # A feature rollout: one non-control variant owns a single range, the rest is unallocated.
        ranges = {name: [] for name in names}
        ranges[rng.choice([name for name in names if name != control])] = [[0, rng.randint(1, BUCKETS)]]
    whitelist = []
    if status in ("draft", "running", "paused") or rng.random() < 0.3:
        for subject in rng.sample(pool, rng.randint(0, 6)):
            whitelist.append({"added_at": "2026-01-01T00:00:00Z", "added_by": "gen", "note": "",
                              "subject": subject, "variant": rng.choice(names)})
    whitelist.sort(key=lambda entry: entry["subject"].encode())
    variants = []
    for name in names:
        buckets = sum(end - start for start, end in ranges[name])
        variants.append({"name": name, "weight": buckets / 100, "ranges": ranges[name],
                         "payload": random_payload(rng) if payloads else None})
    return {
        "control": control, "created_at": "2026-01-01T00:00:00Z", "description": "", "key": key,
        "revision": 1, "salt": salt if salt is not None else "".join(rng.choice(SALT_CHARS) for _ in range(rng.randint(1, 20))),
        "status": status, "type": rng.choice(["user", "device"]), "updated_at": "2026-01-01T00:00:00Z",
        "updated_by": "gen", "variants": variants, "whitelist": whitelist,
        "winner": rng.choice(names) if status == "resolved" else None,
    }


def random_store(rng: random.Random, pool: list[str], payloads: bool | str) -> dict:
    """`payloads`: on every variant (True), on none (False), or per experiment, all or none ("mixed")."""
    keys = sorted(rng.sample([f"exp_{i}" for i in range(40)], rng.randint(1, 8)))
    def carries() -> bool:
        return rng.random() < 0.5 if payloads == "mixed" else bool(payloads)
    return {"experiments": [random_experiment(rng, key, pool, carries()) for key in keys],
            "history": [], "revision": 1, "schema_version": 1}


class CLI:
    def __init__(self, binary: str, directory: str) -> None:
        self.binary = binary
        self.directory = directory
        self.environment = {k: v for k, v in os.environ.items() if not k.startswith("ABCONSOLE_")}
        self.environment["ABCONSOLE_OPERATOR"] = "export-test"

    def run(self, store: str, *arguments: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
        return subprocess.run([self.binary, "--store", store, *arguments], input=stdin, capture_output=True,
                              env=self.environment, timeout=120)


def evaluate(gb, features: dict, attributes: dict) -> dict:
    gb.set_attributes(attributes)
    return {key: gb.eval_feature(key).value for key in features}


def check_store(cli: CLI, report: Report, gb_class, store: dict, index: int, rng: random.Random, pool: list[str]) -> None:
    path = os.path.join(cli.directory, f"store-{index}.json")
    with open(path, "w") as handle:
        json.dump(store, handle, indent=2, sort_keys=True)
    keys = [experiment["key"] for experiment in store["experiments"]]
    payload_of = {(e["key"], v["name"]): v["payload"] for e in store["experiments"] for v in e["variants"]}
    # --values payloads serves an experiment's payloads when all its variants carry one, else names.
    serves_payloads = {e["key"]: all(v["payload"] is not None for v in e["variants"]) for e in store["experiments"]}
    modes = ["names", "payloads"]
    exports = {}
    for mode in modes:
        result = cli.run(path, "export", "--format", "growthbook", "--values", mode)
        if not report.check(result.returncode == 0, lambda: f"store {index}: export --values {mode} exit {result.returncode}: {result.stderr.decode()}"):
            return
        exports[mode] = json.loads(result.stdout)["features"]
        again = cli.run(path, "export", "--format", "growthbook", "--values", mode)
        report.check(again.stdout == result.stdout, f"store {index}: export --values {mode} is not deterministic")

    def expect(variants: dict, attributes: dict, what: str) -> None:
        for mode, features in exports.items():
            gb = gb_class(attributes=attributes, features=features)
            got = evaluate(gb, features, attributes)
            for key in keys:
                want = payload_of[(key, variants[key])] if mode == "payloads" and serves_payloads[key] else variants[key]
                report.check(got[key] == want, lambda: f"store {index} {key} {what} --values {mode}: GrowthBook {got[key]!r}, assign {want!r} ({variants[key]})")

    # Both attributes, one id for both: every subject of a batch `assign`.
    subjects = sorted(set(rng.sample(pool, 40) + [random_id(rng) for _ in range(300)]))
    batch = cli.run(path, "assign", *keys, "--subjects", "-", "--json", stdin=("\n".join(subjects) + "\n").encode())
    if not report.check(batch.returncode == 0, lambda: f"store {index}: batch assign exit {batch.returncode}: {batch.stderr.decode()}"):
        return
    for line in batch.stdout.decode().splitlines():
        answer = json.loads(line)
        expect(answer["variants"], {"id": answer["subject"], "deviceId": answer["subject"]}, f"subject {answer['subject']!r} (id and deviceId)")
    # One attribute, the other, neither, and two different ids.
    for subject in rng.sample(subjects, 6):
        other = rng.choice(pool)
        for attributes, flags in (({"id": subject}, ["--user", subject]), ({"deviceId": subject}, ["--device", subject]),
                                  ({"id": subject, "deviceId": other}, ["--user", subject, "--device", other])):
            single = cli.run(path, "assign", *keys, *flags, "--json")
            if report.check(single.returncode == 0, lambda: f"store {index}: assign {flags} exit {single.returncode}"):
                expect(json.loads(single.stdout)["variants"], attributes, f"attributes {attributes}")
    nobody = cli.run(path, "assign", *keys, "--json")
    if report.check(nobody.returncode == 0, f"store {index}: assign without subject failed"):
        expect(json.loads(nobody.stdout)["variants"], {}, "no attributes")
    check_no_whitelist(cli, report, gb_class, store, index, path, subjects)


def check_no_whitelist(cli: CLI, report: Report, gb_class, store: dict, index: int, path: str, subjects: list[str]) -> None:
    """`--no-whitelist`: the file is the export of the store without whitelists (the SDK gives `assign`'s
    variants of that store), names no whitelisted id; without it, stderr says once that the ids ship."""
    listed = any(e["whitelist"] for e in store["experiments"])
    shipped = cli.run(path, "export", "--format", "growthbook")
    note = shipped.stderr.decode().count("ship in this file")
    report.check(note == (1 if listed else 0), lambda: f"store {index}: whitelist note said {note} times (whitelists: {listed}): {shipped.stderr.decode()!r}")
    bare = dict(store, experiments=[dict(e, whitelist=[]) for e in store["experiments"]])
    bare_path = os.path.join(cli.directory, f"store-{index}-bare.json")
    with open(bare_path, "w") as handle:
        json.dump(bare, handle, indent=2, sort_keys=True)
    for format_ in ("growthbook", "client"):
        left = cli.run(path, "export", "--format", format_, "--no-whitelist")
        reference = cli.run(bare_path, "export", "--format", format_)
        report.check(left.returncode == 0 and "ship in this file" not in left.stderr.decode() and left.stdout == reference.stdout,
                     lambda: f"store {index}: export --format {format_} --no-whitelist is not the export of the store without whitelists: {left.stderr.decode()!r}")
    document = json.loads(cli.run(path, "export", "--format", "growthbook", "--no-whitelist").stdout)
    report.check("$in" not in json.dumps(document), f"store {index}: --no-whitelist still has a whitelist rule")
    features = document["features"]
    keys = [experiment["key"] for experiment in store["experiments"]]
    batch = cli.run(bare_path, "assign", *keys, "--subjects", "-", "--json", stdin=("\n".join(subjects) + "\n").encode())
    if not report.check(batch.returncode == 0, lambda: f"store {index}: batch assign (no whitelist) exit {batch.returncode}"):
        return
    for line in batch.stdout.decode().splitlines():
        answer = json.loads(line)
        attributes = {"id": answer["subject"], "deviceId": answer["subject"]}
        got = evaluate(gb_class(attributes=attributes, features=features), features, attributes)
        for key in keys:
            report.check(got[key] == answer["variants"][key],
                         lambda: f"store {index} {key} --no-whitelist subject {answer['subject']!r}: GrowthBook {got[key]!r}, assign {answer['variants'][key]!r}")


def check_edges(cli: CLI, report: Report, rng: random.Random, pool: list[str]) -> None:
    """Refusals, --out, the non-ASCII warning."""
    store = random_store(rng, pool, payloads=True)
    store["experiments"].append(random_experiment(rng, "zz_unicode", pool, True, salt="sälz"))
    store["experiments"][-1]["whitelist"] = [{"added_at": "2026-01-01T00:00:00Z", "added_by": "gen", "note": "",
                                              "subject": "jörg", "variant": store["experiments"][-1]["variants"][0]["name"]}]
    path = os.path.join(cli.directory, "edges.json")
    with open(path, "w") as handle:
        json.dump(store, handle, sort_keys=True)
    printed = cli.run(path, "export", "--format", "growthbook")
    warning = printed.stderr.decode()
    report.check(printed.returncode == 0 and "zz_unicode" in warning and "non-ASCII salt" in warning and "1 non-ASCII whitelisted id" in warning,
                 lambda: f"non-ASCII warning: exit {printed.returncode}, stderr {warning!r}")
    report.check(not any(f"`{e['key']}`" in warning for e in store["experiments"][:-1]), lambda: f"warning names ASCII experiments: {warning!r}")
    for arguments in (["--format", "growthbook"], ["--format", "growthbook", "--values", "payloads"], ["--format", "client"]):
        out = os.path.join(cli.directory, "out.json")
        stdout = cli.run(path, "export", *arguments)
        written = cli.run(path, "export", *arguments, "--out", out)
        with open(out, "rb") as handle:
            report.check(written.returncode == 0 and handle.read() == stdout.stdout, f"export {arguments} --out differs from stdout")
    broken = dict(store)
    broken["experiments"] = [dict(store["experiments"][0], control="not_a_variant")]
    with open(path, "w") as handle:
        json.dump(broken, handle)
    for arguments in (["--format", "growthbook"], ["--format", "client"]):
        refused = cli.run(path, "export", *arguments, "--out", os.path.join(cli.directory, "never.json"))
        report.check(refused.returncode == 65 and "not_a_variant" in refused.stderr.decode()
                     and not os.path.exists(os.path.join(cli.directory, "never.json")),
                     lambda: f"invalid store export {arguments}: exit {refused.returncode}, {refused.stderr.decode()}")
    check_partial_and_named(cli, report, rng, pool)
    usage = cli.run(path, "export", "--format", "csv")
    report.check(usage.returncode == 64, f"--format csv: exit {usage.returncode}")


def check_partial_and_named(cli: CLI, report: Report, rng: random.Random, pool: list[str]) -> None:
    """`export EXP ...`, `dateUpdated`, and the refusal of an experiment with some payloads but not all."""
    store = random_store(rng, pool, payloads=True)
    partial = random_experiment(rng, "zz_partial", pool, True)
    partial["variants"][-1]["payload"] = None
    missing = partial["variants"][-1]["name"]
    if len(partial["variants"]) == 1:
        partial["variants"].append(dict(partial["variants"][0], name="extra", payload={"x": 1}, ranges=[], weight=0))
    store["experiments"].append(partial)
    store["history"] = [{"action": "create", "after": None, "at": "2026-05-04T03:02:01Z", "before": None,
                         "experiment": store["experiments"][0]["key"], "operator": "gen"}]
    path = os.path.join(cli.directory, "partial.json")
    with open(path, "w") as handle:
        json.dump(store, handle, sort_keys=True)
    out = os.path.join(cli.directory, "partial-out.json")
    refused = cli.run(path, "export", "--format", "growthbook", "--values", "payloads", "--out", out)
    report.check(refused.returncode == 65 and "zz_partial" in refused.stderr.decode() and f"`{missing}`" in refused.stderr.decode()
                 and refused.stdout == b"" and not os.path.exists(out),
                 lambda: f"partial payloads: exit {refused.returncode}, {refused.stderr.decode()!r}")
    others = [e["key"] for e in store["experiments"][:-1]]
    named = cli.run(path, "export", *others[:2], "--format", "growthbook", "--values", "payloads")
    if report.check(named.returncode == 0, lambda: f"export {others[:2]}: exit {named.returncode}, {named.stderr.decode()}"):
        document = json.loads(named.stdout)
        report.check(sorted(document["features"]) == sorted(others[:2]), lambda: f"export {others[:2]} gave {sorted(document['features'])}")
        latest = max([store["history"][0]["at"]] + [e["updated_at"] for e in store["experiments"]])
        report.check(document.get("dateUpdated") == latest, lambda: f"dateUpdated {document.get('dateUpdated')!r}, want {latest!r}")
    unknown = cli.run(path, "export", others[0] + "x", "--format", "growthbook")
    report.check(unknown.returncode == 65 and unknown.stdout == b"" and f"did you mean `{others[0]}`" in unknown.stderr.decode(),
                 lambda: f"unknown key: exit {unknown.returncode}, {unknown.stderr.decode()!r}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/debug/abconsole")
    parser.add_argument("--stores", type=int, default=30)
    parser.add_argument("--seed", type=int, default=11)
    options = parser.parse_args()
    report = Report()
    try:
        from growthbook import GrowthBook
    except ImportError as error:
        report.check(False, f"the GrowthBook Python SDK is not installed ({error}); run `pip install growthbook`")
        return report.finish()
    logging.disable(logging.WARNING)
    rng = random.Random(options.seed)
    pool = sorted({random_id(rng) for _ in range(60)})
    with tempfile.TemporaryDirectory(prefix="abconsole-export-") as directory:
        cli = CLI(os.path.abspath(options.bin), directory)
        for index in range(options.stores):
            check_store(cli, report, GrowthBook, random_store(rng, pool, payloads=[False, True, "mixed"][index % 3]), index, rng, pool)
        check_edges(cli, report, rng, pool)
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
