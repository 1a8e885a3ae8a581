#!/usr/bin/env python3
"""Fields a newer abconsole wrote are kept (SPEC section 11 rule 7), with the real binary.

    python3 Tests/git/unknown_fields.py --bin .build/debug/abconsole

An `x_future` field (and a top-level `a_first` that sorts before every known key) is put on the
store, an experiment, a variant, a whitelist entry and a history entry; then changes are made
through the CLI (whitelist add and note, ramp, set-payload, set-description, a change to another
experiment). Every field is still there with its value; saving twice gives the same bytes; the
merge keeps them and merges them per name (changed differently on both sides: a `field` conflict).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

FUTURE = {"x_future": {"goal": "revenue", "list": [1, 2.5, "x"], "nested": {"b": True, "a": None}}}


def run(binary, *args):
    return subprocess.run([binary] + list(args), capture_output=True, text=True, env=dict(os.environ, ABCONSOLE_OPERATOR="alice"))


def fields_of(store):
    found = {}
    found["store"] = store.get("x_future"), store.get("a_first")
    for exp in store["experiments"]:
        found[exp["key"]] = exp.get("x_future")
        metrics = exp.get("metrics") or {}
        found[(exp["key"], "metrics")] = metrics.get("x_future")
        found[(exp["key"], "goal")] = (metrics.get("goal") or {}).get("x_future")
        for guardrail in metrics.get("guardrails", []):
            found[(exp["key"], "guardrail", guardrail["metric"])] = guardrail.get("x_future")
        for variant in exp["variants"]:
            found[(exp["key"], variant["name"])] = variant.get("x_future")
        for entry in exp["whitelist"]:
            found[(exp["key"], entry["subject"])] = entry.get("x_future")
    found["history0"] = store["history"][0].get("x_future")
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/debug/abconsole")
    binary = parser.parse_args().bin
    failures = []
    with tempfile.TemporaryDirectory(prefix="abconsole-unknown-") as tmp:
        path = os.path.join(tmp, "experiments.json")
        for key in ("alpha", "beta"):
            run(binary, "--store", path, "create", key, "--type", "user", "--variants", "control=50,treat=50")
        run(binary, "--store", path, "whitelist", "add", "alpha", "user-1", "treat", "--note", "qa")
        run(binary, "--store", path, "set-metrics", "alpha", "--goal", "purchase", "--guardrail", "refund:decrease")
        with open(path) as handle:
            store = json.load(handle)
        store.update(FUTURE)
        store["a_first"] = 1
        alpha = store["experiments"][0]
        alpha.update(FUTURE)
        alpha["variants"][1].update(FUTURE)
        alpha["whitelist"][0].update(FUTURE)
        alpha["metrics"].update(FUTURE)
        alpha["metrics"]["goal"].update(FUTURE)
        alpha["metrics"]["guardrails"][0].update(FUTURE)
        store["history"][0].update(FUTURE)
        # An action a newer abconsole records (a ramp plan, say) is kept as it is, like an unknown field.
        store["history"].append({"action": "plan_set", "after": "control=90,treat=10 then control=50,treat=50", "at": store["history"][-1]["at"],
                                 "before": None, "experiment": "alpha", "operator": "future"})
        with open(path, "w") as handle:
            json.dump(store, handle, indent=3)
        want = fields_of(store)
        for command in (["whitelist", "add", "alpha", "user-2", "control"], ["whitelist", "note", "alpha", "user-1", "vip"],
                        ["whitelist", "add", "alpha", "user-1", "control", "--replace"],
                        ["ramp", "alpha", "control=60", "treat=40"], ["set-payload", "alpha", "treat", '{"c":1}'],
                        ["set-description", "alpha", "why"], ["set-description", "beta", "other"],
                        ["set-metrics", "alpha", "--goal", "purchase", "--guardrail", "refund:decrease", "--guardrail", "latency:decrease"]):
            proc = run(binary, "--store", path, *command)
            if proc.returncode != 0:
                failures.append(f"{command}: exit {proc.returncode}: {proc.stderr.strip()}")
            with open(path) as handle:
                got = fields_of(json.load(handle))
            lost = {k: v for k, v in want.items() if got.get(k) != v and v is not None}
            if lost:
                failures.append(f"after {command}: lost {lost}")
            with open(path) as handle:
                actions = [entry["action"] for entry in json.load(handle)["history"]]
            if actions.count("plan_set") != 1:
                failures.append(f"after {command}: the newer version's action is not kept once: {actions}")
        with open(path, "rb") as handle:
            first = handle.read()
        # A change to beta leaves alpha's bytes (unknown fields and all) exactly as they were.
        run(binary, "--store", path, "set-description", "beta", "changed again")
        with open(path, "rb") as handle:
            second = handle.read()
        cut = first.index(b'"key": "beta"')
        head = first[:first.rindex(b"\n    {", 0, cut)]
        if not second.startswith(head):
            failures.append("a change to another experiment changed the bytes of one with unknown fields")
        if run(binary, "--store", path, "validate").returncode != 0:
            failures.append("the store with unknown fields does not validate")
        shown = run(binary, "--store", path, "history", "alpha", "--json")
        if shown.returncode != 0 or "plan_set" not in [entry["action"] for entry in json.loads(shown.stdout or "[]")]:
            failures.append(f"history does not show the newer version's action: exit {shown.returncode} {shown.stderr.strip()}")
        # Merge: changed on one side -> taken; changed differently on both -> a field conflict.
        base = json.loads(first)
        ours, theirs = json.loads(first), json.loads(first)
        ours["experiments"][0]["x_future"] = {"goal": "ours"}
        theirs["experiments"][0]["variants"][1]["x_future"] = {"goal": "theirs"}
        theirs["experiments"][0]["metrics"]["goal"]["x_future"] = {"goal": "theirs"}
        paths = []
        for name, doc in (("base", base), ("ours", ours), ("theirs", theirs)):
            paths.append(os.path.join(tmp, name + ".json"))
            with open(paths[-1], "w") as handle:
                json.dump(doc, handle)
        merged = os.path.join(tmp, "merged.json")
        proc = run(binary, "merge", *paths, "--out", merged)
        with open(merged) as handle:
            result = json.load(handle)
        if [entry["action"] for entry in result["history"]].count("plan_set") != 1:
            failures.append("the merge does not keep the newer version's action once")
        if proc.returncode != 0 or result["experiments"][0]["x_future"] != {"goal": "ours"} \
                or result["experiments"][0]["variants"][1]["x_future"] != {"goal": "theirs"} \
                or result["experiments"][0]["metrics"]["goal"]["x_future"] != {"goal": "theirs"} \
                or result["experiments"][0]["metrics"]["x_future"] != FUTURE["x_future"]:
            failures.append(f"one-sided unknown fields did not merge: exit {proc.returncode} {proc.stdout}")
        theirs["experiments"][0]["x_future"] = {"goal": "theirs"}
        with open(paths[2], "w") as handle:
            json.dump(theirs, handle)
        proc = run(binary, "merge", *paths, "--out", merged, "--json")
        conflicts = json.loads(proc.stdout)["conflicts"] if proc.stdout else []
        if proc.returncode != 1 or [(c["experiment"], c["unit"], c["field"]) for c in conflicts] != [("alpha", "field", "x_future")]:
            failures.append(f"a field changed on both sides is not one field conflict: exit {proc.returncode} {proc.stdout}")
        # A whitelist entry whose only difference is a field this version does not know: the conflict
        # names the field in words, and no command claims to restore THEIRS's.
        theirs = json.loads(first)
        ours = json.loads(first)
        ours["experiments"][0]["whitelist"][0]["x_future"] = "silver"
        theirs["experiments"][0]["whitelist"][0]["x_future"] = "gold"
        for name, doc in (("ours", ours), ("theirs", theirs)):
            with open(os.path.join(tmp, name + ".json"), "w") as handle:
                json.dump(doc, handle)
        proc = run(binary, "merge", *paths, "--out", merged, "--json")
        conflicts = json.loads(proc.stdout)["conflicts"] if proc.stdout else []
        entry = conflicts[0] if len(conflicts) == 1 else {}
        if entry.get("unit") != "whitelist" or 'field x_future="gold"' not in (entry.get("theirs") or "") \
                or 'field x_future="silver"' not in (entry.get("ours") or "") or entry.get("command") is not None:
            failures.append(f"a whitelist conflict on an unknown field does not name it: {proc.stdout}")
        proc = run(binary, "merge", *paths, "--out", merged)
        if "edit it by hand" not in proc.stdout:
            failures.append(f"a whitelist conflict on an unknown field suggests a command: {proc.stdout}")
    for failure in failures:
        print("FAIL", failure)
    print(f"unknown_fields: {len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
