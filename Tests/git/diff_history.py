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
            if "+history" not in log or "ramp alpha" not in log:
                failures.append(f"git log -p (textconv) does not show the change in words: {log[:400]!r}")
            show = mp.git(repo, "show", "--ext-diff").stdout
            if "ramp alpha: control=50,treat=50 → control=80,treat=20" not in show:
                failures.append(f"git show --ext-diff does not print the ramp in words: {show[:400]!r}")
    for failure in failures[:20]:
        print("FAIL", failure)
    print(f"diff_history: {args.rounds} rounds, {len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
