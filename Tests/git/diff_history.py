#!/usr/bin/env python3
"""`abconsole diff OLD NEW` against the history, with the real binary and real git.

    python3 Tests/git/diff_history.py --bin .build/debug/abconsole [--rounds N] [--seed S]

Each round makes a random store through the CLI, saves a copy (OLD), applies a random sequence of
changes (merge_property.py's generator) and checks that `diff OLD NEW --json` names every entry the
history added between them (experiment, action, before, after, operator), a ramp with the share of
subjects it moves (the total-variation distance of the weights, computed here). Then, in a real
repository set up by `abconsole git-setup`, `git diff`, `git log -p` (textconv) and `git show
--ext-diff` print the changes in words. The last line is `diff_history: N rounds, M failed`.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import merge_property as mp  # noqa: E402


def weights(text):
    result = {}
    for pair in text.split(","):
        name, pct = pair.split("=")
        result[name] = round(float(pct) * 100)
    return result


def tvd(before, after):
    moved = sum(max(0, after.get(n, 0) - before.get(n, 0)) for n in set(before) | set(after))
    moved += max(0, (10000 - sum(after.values())) - (10000 - sum(before.values())))
    return moved / 10000


def check_git_edges(runner, repo, store, failures):
    """A hand edit that breaks the store, and a conflicted merge: `git diff` goes on and exits 0."""
    with open(os.path.join(repo, "notes.txt"), "w") as handle:
        handle.write("one\n")
    mp.git(repo, "add", "notes.txt")
    mp.git(repo, "commit", "-q", "-m", "notes")
    text = open(store).read()
    with open(store, "w") as handle:
        handle.write(text.replace('"status": "running"', '"status": "sideways"', 1))
    with open(os.path.join(repo, "notes.txt"), "w") as handle:
        handle.write("two\n")
    proc = mp.git(repo, "diff", check=False)
    if proc.returncode != 0 or "warning" not in proc.stderr or '+      "status": "sideways",' not in proc.stdout or "+two" not in proc.stdout:
        failures.append(f"git diff of a store that does not validate: exit {proc.returncode}, {proc.stderr[:300]!r}, {proc.stdout[-600:]!r}")
    mp.git(repo, "checkout", "-q", "--", ".")
    # A conflicted merge: git calls the external diff with the path alone.
    mp.git(repo, "checkout", "-q", "-b", "side")
    runner.run(["--store", store, "ramp", "alpha", "control=10", "treat=90"], check=True)
    mp.git(repo, "commit", "-q", "-am", "side ramp")
    mp.git(repo, "checkout", "-q", "main")
    runner.run(["--store", store, "ramp", "alpha", "control=30", "treat=70"], check=True)
    mp.git(repo, "commit", "-q", "-am", "main ramp")
    merge = mp.git(repo, "merge", "-q", "--no-edit", "side", check=False)
    if merge.returncode == 0:
        failures.append("the conflicting ramps merged cleanly")
    # (`git diff` shows the combined diff of the stages through textconv; `--cached` calls the external diff with the path alone.)
    for args, said in ((["diff"], ""), (["diff", "--cached"], "is unmerged")):
        proc = mp.git(repo, *args, check=False)
        if proc.returncode != 0 or said not in proc.stdout:
            failures.append(f"git {' '.join(args)} during a conflicted merge: exit {proc.returncode}, {proc.stderr[:300]!r} {proc.stdout[:300]!r}")
    mp.git(repo, "merge", "--abort")


def check_not_a_prefix(runner, tmp, failures):
    """`diff OLD NEW` where OLD's history is no prefix of NEW's (a merge interleaved them): NEW's new entries."""
    base = os.path.join(tmp, "np-base.json")
    runner.run(["--store", base, "create", "beta", "--type", "user", "--variants", "a=50,b=50"], check=True)
    ours, theirs, merged = (os.path.join(tmp, f"np-{n}.json") for n in ("ours", "theirs", "merged"))
    shutil.copyfile(base, ours)
    shutil.copyfile(base, theirs)
    runner.run(["--store", ours, "set-description", "beta", "ours"], check=True, extra_env={"ABCONSOLE_NOW": "2030-01-01T00:00:02Z"})
    runner.run(["--store", theirs, "whitelist", "add", "beta", "u1", "a"], check=True, extra_env={"ABCONSOLE_NOW": "2030-01-01T00:00:01Z"})
    runner.run(["--store", theirs, "add-variant", "beta", "c"], check=True, extra_env={"ABCONSOLE_NOW": "2030-01-01T00:00:03Z"})
    runner.run(["merge", base, ours, theirs, "--out", merged], extra_env=mp.MERGE_NOW)
    for plain in ({}, {"ABCONSOLE_PLAIN_MERGE": "1"}):
        proc = runner.run(["diff", ours, merged, "--json"], extra_env=plain)
        got = [(c["action"], c["operator"]) for c in json.loads(proc.stdout or '{"changes": []}')["changes"]] if proc.returncode == 0 else None
        if got != [("whitelist_add", "alice"), ("add_variant", "alice")]:
            failures.append(f"diff OURS MERGED (OURS's history no prefix of the merge's) {plain}: exit {proc.returncode}, {got}, {proc.stderr.strip()}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/debug/abconsole")
    parser.add_argument("--rounds", type=int, default=25)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    runner = mp.Runner(args.bin)
    failures = []
    with tempfile.TemporaryDirectory(prefix="abconsole-diff-") as tmp:
        for round_number in range(args.rounds):
            old, new = os.path.join(tmp, "old.json"), os.path.join(tmp, "new.json")
            for path in (old, new):
                if os.path.exists(path):
                    os.remove(path)
            runner.run(["--store", old, "create", "alpha", "--type", "user", "--variants", "control=50,treat=50"], check=True)
            runner.run(["--store", old, "start", "alpha"], check=True)
            mp.random_side(runner, rng, old, new, tmp, "alice", rng.randint(0, 3))
            shutil.copyfile(new, old)
            mp.random_side(runner, rng, old, new, tmp, "bob", rng.randint(1, 8))
            proc = runner.run(["diff", old, new, "--json"])
            if proc.returncode != 0:
                failures.append(f"round {round_number}: exit {proc.returncode}: {proc.stderr.strip()}")
                continue
            changes = json.loads(proc.stdout)["changes"]
            added = mp.load(new)["history"][len(mp.load(old)["history"]):]
            want = [(e["experiment"], e["action"], e["before"], e["after"], e["operator"]) for e in added]
            got = [(c["experiment"], c["action"], c["before"], c["after"], c["operator"]) for c in changes]
            if got != want:
                failures.append(f"round {round_number}: diff {got} != history {want}")
                continue
            for change in changes:
                if change["action"] == "ramp":
                    share = tvd(weights(change["before"]), weights(change["after"]))
                    if abs(change["moved_share"] - share) > 1e-9:
                        failures.append(f"round {round_number}: ramp share {change['moved_share']} != {share}")
            text = runner.run(["diff", old, new]).stdout
            for (experiment, action, _, _, _) in want:
                if f"{action} {experiment}:" not in text:
                    failures.append(f"round {round_number}: text diff does not name {action} {experiment}")
        # git: textconv for log -p / show, the external diff for git diff and --ext-diff.
        if shutil.which("git"):
            repo = os.path.join(tmp, "repo")
            os.makedirs(repo)
            mp.git(repo, "init", "-q", "-b", "main")
            store = os.path.join(repo, "experiments.json")
            runner.run(["--store", store, "create", "alpha", "--type", "user", "--variants", "control=50,treat=50"], check=True)
            setup = runner.run(["--store", store, "git-setup"], cwd=repo)
            if setup.returncode != 0:
                failures.append(f"git-setup: exit {setup.returncode}: {setup.stderr.strip()}")
            again = runner.run(["--store", store, "git-setup", "--check"], cwd=repo)
            if again.returncode != 0:
                failures.append(f"git-setup --check after git-setup: exit {again.returncode}: {again.stdout.strip()}")
            mp.git(repo, "add", ".")
            mp.git(repo, "commit", "-q", "-m", "create")
            runner.run(["--store", store, "start", "alpha"], check=True)
            runner.run(["--store", store, "ramp", "alpha", "control=80", "treat=20"], check=True)
            shown = mp.git(repo, "diff").stdout
            if "ramp alpha: control=50,treat=50 → control=80,treat=20 (moves 30 % of subjects)" not in shown:
                failures.append(f"git diff does not print the ramp in words: {shown[:400]!r}")
            mp.git(repo, "commit", "-q", "-am", "ramp")
            log = mp.git(repo, "log", "-p", "-1").stdout
            # The textconv form says what each entry did, a ramp with the share it moved, as `abconsole diff` does.
            if "+history ramp alpha: control=50,treat=50 → control=80,treat=20 (moves 30 % of subjects) by alice" not in log:
                failures.append(f"git log -p (textconv) does not show the ramp in words with its share: {log[:600]!r}")
            show = mp.git(repo, "show", "--ext-diff").stdout
            if "ramp alpha: control=50,treat=50 → control=80,treat=20" not in show:
                failures.append(f"git show --ext-diff does not print the ramp in words: {show[:400]!r}")
            check_git_edges(runner, repo, store, failures)
            check_not_a_prefix(runner, tmp, failures)
    for failure in failures[:20]:
        print("FAIL", failure)
    print(f"diff_history: {args.rounds} rounds, {len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
