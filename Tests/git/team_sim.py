#!/usr/bin/env python3
"""A team's day with the store in git (SPEC section 11), with the real binary and real git.

    python3 Tests/git/team_sim.py --bin .build/debug/abconsole            # fast: 4 seeds x 80 rounds
    python3 Tests/git/team_sim.py --bin .build/debug/abconsole --long     # 12 seeds x 200 rounds

A bare origin and three clones (alice, bob, carol), each set up with `abconsole git-setup
--commit-changes`, its own operator, git identity and `pull.rebase` (alice false, bob true, carol
false), and its own clock skew (bob's clock runs 30 minutes behind, carol's 10 ahead: every change
and commit is stamped through ABCONSOLE_NOW and GIT_*_DATE, so a seed replays exactly). Each round a random clone makes one to three random CLI changes
(ramp, whitelist add/remove, set-description, pause/start, create, add-variant, set-payload,
set-metrics) on a shared set of experiments, each committed by --commit-changes, then syncs by a
random method:

- `pull`: `git pull` as the clone's `pull.rebase` says; `pull-merge`: `git pull --no-rebase`;
  `pull-rebase`: `git pull --rebase`;
- `cherry-pick`: fetch another clone's branches, `git cherry-pick -x` one of its commits this clone lacks;
- `revert`: `git revert` of an earlier own commit (not HEAD: git calls no driver for `revert HEAD`);
- `stash`: a change saved with --commit-changes off (git's GIT_CONFIG_* environment), `git stash`,
  `git pull`, `git stash pop`, then a hand commit;
- `topic`: the changes go to a long-lived branch `topic-NAME` (main merged into it now and then),
  merged back into main with `git merge --no-ff` some rounds later;

then pushes (a rejected push pulls again). A sync that stops on a conflict (the driver exits 1) is
settled as the README says, keeping OURS: `git add`, then `git commit --no-edit` or `git rebase /
cherry-pick / revert --continue` (`git stash drop` after a stash pop). Checked after every sync:

- a conflict names units both sides changed (index stages 1-3 compared unit by unit, independently
  of the Swift code, with merge_property's oracle): a sync whose sides changed disjoint units never
  stops; the file holds OURS's value of each conflict and the merged value of every other unit;
- a clean `git merge` (one merge base) gives exactly the oracle's units;
- no conflict markers, `abconsole validate` passes, the history is in time order, `git status
  --porcelain` is clean (the lock file ignored);

and after a final full sync of every clone and branch: every change any clone made (its whole
history entry) is in every clone's history exactly once; every unit changed by one clone only (CLI
changes, its own reverts and the commits it cherry-picked) holds that clone's last value unless it was in a conflict (its topic branch counts as another clone, and a payload goes with its variant); every
clone holds the same store; a field a newer abconsole wrote (`x_future`) is still there; every
other entry is a revert a merge added (`by_merge`), counted. Every merge's output (a clean `git
merge`, and the file at every conflict) holds each entry of its three inputs once, in time order. The last line is
`team_sim: N passed, M failed` (N checks).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import merge_property as oracle  # noqa: E402  (the independent unit model and three-way oracle)

STORE = "experiments.json"
SEED_KEYS = ["checkout", "search", "onboarding", "pricing"]
NEW_KEYS = ["banner", "signup", "cart", "promo", "footer", "upsell"]
EXTRA_VARIANTS = ["v2", "v3"]
METRICS = ["purchase", "signup", "revenue"]
CLONES = [("alice", 0, "false"), ("bob", -1800, "true"), ("carol", 600, "false")]
METHODS = {"pull": 3, "pull-merge": 3, "pull-rebase": 3, "cherry-pick": 2, "revert": 2, "stash": 2, "topic": 2}
START = datetime(2026, 3, 2, 9, 0, 0, tzinfo=timezone.utc)
BASE_ENV = dict(GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1", GIT_EDITOR="true", GIT_MERGE_AUTOEDIT="no",
                LC_ALL="C", NO_COLOR="1", GIT_TERMINAL_PROMPT="0")
NO_COMMIT = dict(GIT_CONFIG_COUNT="1", GIT_CONFIG_KEY_0="abconsole.commitChanges", GIT_CONFIG_VALUE_0="false")


def units(store):
    """merge_property's units plus each experiment's metrics (SPEC section 12)."""
    result = oracle.base_units(store)
    for exp in store["experiments"]:
        result[(exp["key"], "metrics", None, None)] = json.dumps(exp.get("metrics"), sort_keys=True)
    return result


# The oracle's three-way model reads units through this module-level name: give it metrics too.
oracle.base_units = oracle.units
oracle.units = units

EMPTY = {"experiments": [], "history": [], "revision": 0, "schema_version": 1}


def history_problem(sides, merged):
    """Rule 4 on a merge's output: every entry of BASE, OURS and THEIRS once, in time order; an entry
    none of them has is a revert the merge explains (`by_merge`). None when nothing is wrong."""
    known = {json.dumps(entry, sort_keys=True) for side in sides for entry in side["history"]}
    got = [json.dumps(entry, sort_keys=True) for entry in merged["history"]]
    twice = sorted({key for key in got if got.count(key) > 1})
    missing = sorted(known - set(got))
    strange = [key for key in got if key not in known and not (json.loads(key).get("by_merge") is True and json.loads(key)["action"] == "revert")]
    times = [entry["at"] for entry in merged["history"]]
    if twice or missing or strange:
        return f"the merged history is not each side's entry once ({len(twice)} twice, {len(missing)} missing, {len(strange)} new but not a merge's revert: {(twice + missing + strange)[:2]})"
    return None if times == sorted(times) else "the merged history is not in time order"


class Abort(Exception):
    """The seed's repositories are in a state the simulation cannot go on from."""


class Clone:
    def __init__(self, sim, name, skew, rebase):
        self.sim, self.name, self.skew, self.rebase = sim, name, skew, rebase
        self.path = os.path.join(sim.root, name)
        self.last = START - timedelta(days=1)
        self.topic_age = None  # rounds of this clone since its topic branch was made; None: no topic

    def now(self):
        """This clone's clock: the team's time plus its skew, strictly increasing per clone."""
        moment = max(self.sim.clock + timedelta(seconds=self.skew + self.sim.rng.randint(0, 50)), self.last + timedelta(seconds=1))
        self.last = moment
        return moment

    def env(self, extra=None):
        """Every process runs at this clone's clock: abconsole's changes and git's commit dates alike, so a
        seed replays exactly (git orders `log` and `rev-list`, which pick a cherry-pick or a revert, by date)."""
        moment = self.now()
        stamp = f"{int(moment.timestamp())} +0000"
        return dict(os.environ, **BASE_ENV, ABCONSOLE_OPERATOR=self.name, ABCONSOLE_NOW=moment.strftime("%Y-%m-%dT%H:%M:%SZ"),
                    GIT_AUTHOR_DATE=stamp, GIT_COMMITTER_DATE=stamp, **(extra or {}))

    def git(self, *args, check=True, extra=None):
        began = time.monotonic()
        proc = subprocess.run(["git"] + list(args), cwd=self.path, capture_output=True, text=True, env=self.env(extra))
        self.sim.totals["git s"] += time.monotonic() - began
        self.sim.totals["git runs"] += 1
        if check and proc.returncode != 0:
            raise Abort(f"{self.name}: git {' '.join(args)}: exit {proc.returncode}: {(proc.stderr or proc.stdout).strip()[:400]}")
        return proc

    def cli(self, args, extra=None):
        began = time.monotonic()
        proc = subprocess.run([self.sim.binary] + args, cwd=self.path, capture_output=True, text=True, env=self.env(extra))
        self.sim.totals["abconsole s"] += time.monotonic() - began
        self.sim.totals["abconsole runs"] += 1
        return proc

    def store(self):
        return oracle.load(os.path.join(self.path, STORE))

    def show(self, spec):
        proc = self.git("show", spec, check=False)
        if proc.returncode != 0 or not proc.stdout.strip():
            return None
        try:
            return json.loads(proc.stdout)
        except ValueError as error:
            marked = [line for line in proc.stdout.splitlines() if line.startswith(("<<<<<<<", "=======", ">>>>>>>", "|||||||"))]
            raise Abort(f"{self.name}: `git show {spec}` is not a store ({error}; marker lines: {marked[:4]})")

    def operation(self):
        """The git operation in progress, if any."""
        gitdir = os.path.join(self.path, ".git")
        if os.path.isdir(os.path.join(gitdir, "rebase-merge")) or os.path.isdir(os.path.join(gitdir, "rebase-apply")):
            return "rebase"
        for name, head in (("cherry-pick", "CHERRY_PICK_HEAD"), ("revert", "REVERT_HEAD"), ("merge", "MERGE_HEAD")):
            if os.path.exists(os.path.join(gitdir, head)):
                return name
        return None

    def unmerged(self):
        return bool(self.git("ls-files", "-u", "--", STORE).stdout.strip())

    def branch(self):
        return self.git("rev-parse", "--abbrev-ref", "HEAD").stdout.strip()


class Sim:
    def __init__(self, binary, seed, root, totals):
        self.binary, self.seed, self.root, self.totals = binary, seed, root, totals
        self.rng = random.Random(seed)
        self.clock = START
        self.clones = [Clone(self, *spec) for spec in CLONES]
        self.changes = {}           # entry json -> clone name: every change any clone made
        self.touched = {}           # unit -> set of clone names that changed it (CLI, own revert, cherry-pick)
        self.last_value = {}        # (unit, clone name) -> the value that clone last gave it
        self.conflicted = set()     # units that were in a conflict
        self.label = "setup"

    # ------------------------------------------------------------ checks

    def check(self, condition, message):
        if condition:
            self.totals["passed"] += 1
        else:
            self.totals["failed"] += 1
            self.totals["failures"].append(f"seed {self.seed} {self.label}: {message}")
        return condition

    def check_store(self, clone):
        """No markers, valid, history in time order, work tree clean."""
        with open(os.path.join(clone.path, STORE), encoding="utf-8") as handle:
            text = handle.read()
        self.check("<<<<<<<" not in text and ">>>>>>>" not in text, f"{clone.name}: conflict markers in the store")
        proc = clone.cli(["validate"])
        self.check(proc.returncode == 0, f"{clone.name}: validate exit {proc.returncode}: {proc.stderr.strip()[:300]}")
        history = json.loads(text)["history"]
        times = [entry["at"] for entry in history]
        self.check(times == sorted(times), f"{clone.name}: the history is not in time order "
                   f"(first out of order: {next((b for a, b in zip(times, times[1:]) if b < a), None)})")
        status = clone.git("status", "--porcelain").stdout.strip()
        self.check(status == "", f"{clone.name}: git status not clean: {status[:200]!r}")

    def check_conflict(self, clone, output):
        """The index holds stages for the store: they must conflict, and the file hold OURS's value of each."""
        base = clone.show(":1:" + STORE) or EMPTY
        ours, theirs = clone.show(":2:" + STORE), clone.show(":3:" + STORE)
        if ours is None or theirs is None:
            self.check(False, f"{clone.name}: a conflict without both sides' stages")
            return
        self.totals["conflicts"] += 1
        expected, conflicts = oracle.expected_merge(base, ours, theirs)
        said = " | ".join(line for line in output.splitlines() if line.strip())[:500]
        if not self.check(bool(conflicts), f"{clone.name}: a sync whose sides changed disjoint units stopped on a conflict: {said}"):
            return
        merged = clone.store()
        problem = history_problem([base, ours, theirs], merged)
        self.check(problem is None, f"{clone.name}: {problem}")
        got = units(merged)
        for unit in conflicts:
            self.check(got.get(unit) == units(ours).get(unit) or unit[1] == "whitelist" and got.get(unit) in (units(ours).get(unit), None),
                       f"{clone.name}: conflicting unit {unit} does not hold OURS's value")
            self.conflicted.add(unit[:4])
        others = {u: v for u, v in got.items() if u not in conflicts}
        want = {u: v for u, v in expected.items() if u not in conflicts}
        self.check(others == want, f"{clone.name}: the units merged beside the conflicts differ from the oracle's: "
                   f"{sorted(set(others.items()) ^ set(want.items()), key=str)[:3]}")

    # ------------------------------------------------------------ changes

    def random_command(self, store):
        rng = self.rng
        exps = {e["key"]: e for e in store["experiments"] if e["status"] != "resolved"}
        absent = [k for k in NEW_KEYS if k not in {e["key"] for e in store["experiments"]}]
        choice = rng.random()
        if choice < 0.06 and absent:
            names = ["control", "treat"] if rng.random() < 0.7 else ["control", "a", "b"]
            return ["create", rng.choice(absent), "--type", "user", "--variants", ",".join(oracle.random_weights(rng, names))]
        exp = exps[rng.choice(sorted(exps))]
        key, names = exp["key"], [v["name"] for v in exp["variants"]]
        if choice < 0.25:
            return ["ramp", key] + oracle.random_weights(rng, names)
        if choice < 0.42:
            return ["whitelist", "add", key, rng.choice(oracle.SUBJECTS), rng.choice(names), "--note", rng.choice(oracle.NOTES), "--replace"]
        if choice < 0.50 and exp["whitelist"]:
            return ["whitelist", "remove", key, rng.choice(exp["whitelist"])["subject"]]
        if choice < 0.60:
            return ["set-description", key, f"what {key} tests, take {rng.randint(0, 999)}"]
        if choice < 0.70:
            return ["pause", key] if exp["status"] == "running" else ["start", key]
        if choice < 0.76 and [v for v in EXTRA_VARIANTS if v not in names]:
            return ["add-variant", key, rng.choice([v for v in EXTRA_VARIANTS if v not in names])]
        if choice < 0.88:
            if rng.random() < 0.2:
                return ["set-payload", key, rng.choice(names), "--clear"]
            return ["set-payload", key, rng.choice(names), rng.choice(oracle.PAYLOADS)]
        if rng.random() < 0.15:
            return ["set-metrics", key, "--clear"]
        command = ["set-metrics", key, "--goal", rng.choice(METRICS)]
        if rng.random() < 0.5:
            command += ["--guardrail", "refund:decrease"]
        return command

    def record(self, clone, before, after, actor=None):
        """`after` is `before` changed by this clone: note the units it changed and their values. A clone's
        changes on its topic branch are another actor's (`actor`): until the branch is merged back they
        are concurrent with its changes on main, so neither is simply its last (a change on main and its
        revert leave main as the merge base had it, and the merge takes the topic's value)."""
        old, new = units(before), units(after)
        for unit in set(old) | set(new):
            if old.get(unit) != new.get(unit):
                self.touched.setdefault(unit, set()).add(actor or clone.name)
                self.last_value[(unit, actor or clone.name)] = new.get(unit)

    def make_changes(self, clone, count, commit=True, actor=None):
        """`count` random CLI changes; each is one new history entry (and one commit with --commit-changes)."""
        head = clone.git("rev-parse", "HEAD").stdout.strip()
        for _ in range(count):
            before = clone.store()
            command = self.random_command(before)
            proc = clone.cli(command, None if commit else NO_COMMIT)
            self.totals["cli"] += 1
            if proc.returncode != 0:
                self.totals["refused"] += 1
                continue
            after = clone.store()
            added = [e for e in after["history"] if e not in before["history"]]
            if not added:  # `start` of a running experiment: nothing written
                continue
            if not self.check(len(added) == 1 and added[0]["operator"] == clone.name,
                              f"{clone.name}: {command} added {len(added)} history entries"):
                continue
            self.changes[json.dumps(added[0], sort_keys=True)] = clone.name
            self.record(clone, before, after, actor)
            times = [e["at"] for e in after["history"]]
            self.check(times == sorted(times), f"{clone.name}: {command} at {added[0]['at']} left the history out of time order")
            if commit:
                made, parent, message = (clone.git("log", "-1", "--format=%H%n%P%n%B").stdout.split("\n", 2) + ["", ""])[:3]
                self.check(parent.strip() == head and f"Operator: {clone.name}" in message,
                           f"{clone.name}: {command} was not committed alone with its Operator trailer: {proc.stderr.strip()[:200]}")
                head = made.strip()

    # ------------------------------------------------------------ git

    def settle(self, clone, proc):
        """Settles every stop of the git operation `proc` ran, keeping OURS, as the README says."""
        output = proc.stdout + proc.stderr
        for _ in range(50):
            operation, unmerged = clone.operation(), clone.unmerged()
            if unmerged:
                self.totals["settled"][operation] = self.totals["settled"].get(operation, 0) + 1
                self.check_conflict(clone, output)
                clone.git("add", "--", STORE)
            if operation is None:
                if not unmerged and proc.returncode != 0:
                    raise Abort(f"{clone.name}: git stopped without a conflict: {output.strip()[-600:]}")
                return unmerged
            if operation == "merge":
                step = clone.git("commit", "--no-edit", check=False)
            else:
                step = clone.git(operation, "--continue", check=False)
                if step.returncode != 0 and not clone.unmerged() and clone.operation() == operation:
                    # The step is empty (its change is already here): skip it; the final check finds any loss.
                    self.totals["empty steps skipped"] += 1
                    step = clone.git(operation, "--skip", check=False)
            if step.returncode == 0 and clone.operation() is None:
                return True
            proc, output = step, step.stdout + step.stderr
        raise Abort(f"{clone.name}: the operation did not finish: {output.strip()[:300]}")

    def merge_checked(self, clone, args, target):
        """`git ARGS` merging `target` into HEAD; a clean merge with one base must give the oracle's units."""
        bases = clone.git("merge-base", "--all", "HEAD", target, check=False).stdout.split()
        ours, theirs = clone.store(), clone.show(f"{target}:{STORE}")
        proc = clone.git(*args, check=False)
        stopped = self.settle(clone, proc)
        if not stopped and len(bases) == 1 and theirs is not None:
            base = clone.show(f"{bases[0]}:{STORE}") or EMPTY
            expected, conflicts = oracle.expected_merge(base, ours, theirs)
            merged = clone.store()
            problem = history_problem([base, ours, theirs], merged)
            self.check(problem is None, f"{clone.name}: `git {' '.join(args)}`: {problem}")
            got = units(merged)
            self.check(not conflicts and got == expected,
                       f"{clone.name}: clean `git {' '.join(args)}` differs from the oracle (expected conflicts {sorted(map(str, conflicts))[:3]}): "
                       f"{sorted(set(got.items()) ^ set(expected.items()), key=str)[:3]}")
        return stopped

    def pull(self, clone, mode=None):
        """`git pull` (as configured, or --rebase / --no-rebase), settled."""
        self.totals["pulls"] += 1
        if mode == "--rebase" or (mode is None and clone.rebase == "true"):
            proc = clone.git("pull", *([mode] if mode else []), check=False)
            self.settle(clone, proc)
        else:
            clone.git("fetch", "-q", "origin")
            self.merge_checked(clone, ["pull", "--no-rebase"] if mode else ["pull"], "origin/main")

    def push(self, clone):
        for _ in range(5):
            if clone.git("push", "-q", "origin", "main", check=False).returncode == 0:
                return
            self.totals["rejected"] += 1
            self.pull(clone)
        raise Abort(f"{clone.name}: push rejected five times")

    # ------------------------------------------------------------ methods

    def sync_pull(self, clone, mode):
        self.make_changes(clone, self.rng.randint(1, 3))
        self.pull(clone, mode)
        self.push(clone)

    def sync_cherry_pick(self, clone):
        self.make_changes(clone, self.rng.randint(1, 3))
        peer = self.rng.choice([c for c in self.clones if c is not clone])
        clone.git("fetch", "-q", peer.path, f"+refs/heads/*:refs/remotes/{peer.name}/*")
        refs = clone.git("for-each-ref", "--format=%(refname)", f"refs/remotes/{peer.name}/").stdout.split()
        topics = [r for r in refs if "/topic-" in r]
        candidates = clone.git("rev-list", "--no-merges", *(topics or refs), "^HEAD", "--", STORE).stdout.split()
        if not candidates:
            self.totals["methods"]["cherry-pick (nothing to pick: pull)"] += 1
            return self.sync_pull(clone, None)
        pick = self.rng.choice(candidates[:6])
        before = clone.store()
        self.settle(clone, clone.git("cherry-pick", "-x", pick, check=False))
        # The picked values are now this clone's too: a later change of them on the original branch
        # meets the copy as any concurrent change does (a conflict, or the copy kept when that branch
        # set them back).
        self.record(clone, before, clone.store())
        self.pull(clone)
        self.push(clone)

    def sync_revert(self, clone):
        self.make_changes(clone, self.rng.randint(1, 3))
        email = f"{clone.name}@example.com"
        own = clone.git("log", "--no-merges", "-n", "12", f"--author={email}", "--invert-grep", "--grep=^Revert",
                        "--format=%H", f"{self.seed_commit}..HEAD~1", "--", STORE, check=False).stdout.split()
        head_blob = clone.git("rev-parse", f"HEAD:{STORE}").stdout.strip()
        own = [c for c in own if clone.git("rev-parse", f"{c}:{STORE}").stdout.strip() != head_blob]
        if not own:
            self.totals["methods"]["revert (nothing to revert: pull)"] += 1
            self.pull(clone)
            return self.push(clone)
        target = self.rng.choice(own)
        before_head = clone.git("rev-parse", "HEAD").stdout.strip()
        before = clone.store()
        self.settle(clone, clone.git("revert", "--no-edit", target, check=False))
        if clone.git("rev-parse", "HEAD").stdout.strip() != before_head:
            self.record(clone, before, clone.store())
        self.pull(clone)
        self.push(clone)

    def sync_stash(self, clone):
        self.make_changes(clone, self.rng.randint(0, 2))
        before = clone.store()
        self.make_changes(clone, 1, commit=False)
        if clone.store() == before:
            self.totals["methods"]["stash (nothing saved: pull)"] += 1
            self.pull(clone)
            return self.push(clone)
        self.check(clone.git("status", "--porcelain", "--", STORE).stdout.strip() != "",
                   f"{clone.name}: a change with commit-changes off was committed")
        clone.git("stash", "-q")
        self.pull(clone)
        pop = clone.git("stash", "pop", check=False)
        if clone.unmerged():
            self.totals["settled"]["stash pop"] = self.totals["settled"].get("stash pop", 0) + 1
            self.check_conflict(clone, pop.stdout + pop.stderr)
            clone.git("add", "--", STORE)
            clone.git("stash", "drop", "-q")
        elif pop.returncode != 0:
            raise Abort(f"{clone.name}: git stash pop: {(pop.stdout + pop.stderr).strip()[:300]}")
        if self.check(clone.git("status", "--porcelain", "--", STORE).stdout.strip() != "",
                      f"{clone.name}: `git stash pop` left nothing of the stashed change: {(pop.stdout + pop.stderr).strip()[:300]}"):
            clone.git("commit", "-q", "-m", "the stashed change", "--", STORE)
        self.push(clone)

    def sync_topic(self, clone):
        branch = f"topic-{clone.name}"
        if clone.topic_age is None:
            clone.git("switch", "-q", "-c", branch)
            clone.topic_age = 0
        else:
            clone.git("switch", "-q", branch)
            if self.rng.random() < 0.3:
                self.merge_checked(clone, ["merge", "--no-edit", "main"], "main")
        self.make_changes(clone, self.rng.randint(1, 3), actor=f"{clone.name} on {branch}")
        clone.topic_age += 1
        clone.git("switch", "-q", "main")
        if clone.topic_age >= 3 or self.rng.random() < 0.3:
            self.merge_topic(clone)
            self.push(clone)

    def merge_topic(self, clone):
        branch = f"topic-{clone.name}"
        self.pull(clone)
        self.merge_checked(clone, ["merge", "--no-ff", "--no-edit", branch], branch)
        clone.git("branch", "-q", "-D", branch)
        clone.topic_age = None
        self.totals["topic merges"] += 1

    # ------------------------------------------------------------ the day

    def setup(self):
        origin = os.path.join(self.root, "origin.git")
        subprocess.run(["git", "init", "-q", "--bare", "-b", "main", origin], check=True, env=dict(os.environ, **BASE_ENV))

        def clone_origin(clone):
            subprocess.run(["git", "clone", "-q", origin, clone.path], check=True, capture_output=True, env=dict(os.environ, **BASE_ENV))
            clone.git("config", "user.name", clone.name.capitalize())
            clone.git("config", "user.email", f"{clone.name}@example.com")
            clone.git("config", "pull.rebase", clone.rebase)

        clone_origin(self.clones[0])
        first = self.clones[0]
        first.git("symbolic-ref", "HEAD", "refs/heads/main")
        for key in SEED_KEYS:
            for command in (["create", key, "--type", "user", "--variants", "control=50,treat=50"], ["start", key]):
                proc = first.cli(command)
                if proc.returncode != 0:
                    raise Abort(f"seed store: {command}: {proc.stderr.strip()}")
        # A field a newer abconsole wrote: every change and merge keeps it.
        store = first.store()
        next(e for e in store["experiments"] if e["key"] == SEED_KEYS[0])["x_future"] = {"rollout": "gradual"}
        with open(os.path.join(first.path, STORE), "w", encoding="utf-8") as handle:
            json.dump(store, handle, indent=1)
        # One change writes it in the canonical layout, as a newer abconsole would have (a command that
        # changes nothing, such as `start` of a running experiment, would rewrite it uncommitted).
        proc = first.cli(["set-description", SEED_KEYS[0], "the checkout button"])
        if proc.returncode != 0:
            raise Abort(f"seed store: set-description: {proc.stderr.strip()}")
        proc = first.cli(["git-setup", "--commit-changes"])
        if proc.returncode != 0:
            raise Abort(f"git-setup: {proc.stderr.strip()}")
        first.git("add", "--", STORE, ".gitattributes", *([".gitignore"] if os.path.exists(os.path.join(first.path, ".gitignore")) else []))
        first.git("commit", "-q", "-m", "The experiment store, set up for abconsole")
        first.git("push", "-q", "-u", "origin", "main")
        self.seed_commit = first.git("rev-parse", "HEAD").stdout.strip()  # the set-up commit, never reverted
        for clone in self.clones[1:]:
            clone_origin(clone)
            proc = clone.cli(["git-setup", "--commit-changes"])
            if proc.returncode != 0:
                raise Abort(f"git-setup in {clone.name}: {proc.stderr.strip()}")
        self.initial = units(first.store())
        self.seeded = {json.dumps(entry, sort_keys=True) for entry in first.store()["history"]}

    def run(self, rounds):
        self.setup()
        for number in range(1, rounds + 1):
            self.clock += timedelta(seconds=self.rng.randint(60, 900))
            clone = self.rng.choice(self.clones)
            method = self.rng.choices(list(METHODS), weights=list(METHODS.values()))[0]
            self.label = f"round {number} ({clone.name}, {method})"
            self.totals["methods"][method] += 1
            self.totals["rounds"] += 1
            if method.startswith("pull"):
                self.sync_pull(clone, {"pull": None, "pull-merge": "--no-rebase", "pull-rebase": "--rebase"}[method])
            else:
                getattr(self, "sync_" + method.replace("-", "_"))(clone)
            self.check(clone.operation() is None and clone.branch() == "main", f"{clone.name}: left mid-operation or off main")
            self.check_store(clone)
        self.final_sync()

    def final_sync(self):
        self.label = "final sync"
        for _ in range(2):
            for clone in self.clones:
                if clone.topic_age is not None:
                    self.merge_topic(clone)
                self.pull(clone)
                self.push(clone)
        heads = {clone.git("rev-parse", "HEAD").stdout.strip() for clone in self.clones}
        self.check(len(heads) == 1, f"the clones hold {len(heads)} different commits after a full sync")
        tracked = set(self.changes)
        for clone in self.clones:
            self.check_store(clone)
            store = clone.store()
            keys = [json.dumps(entry, sort_keys=True) for entry in store["history"]]
            counts = {}
            for key in keys:
                counts[key] = counts.get(key, 0) + 1
            missing = [k for k in tracked if counts.get(k, 0) == 0]
            twice = [k for k in tracked if counts.get(k, 0) > 1]
            self.check(not missing, f"{clone.name}: {len(missing)} of {len(tracked)} changes missing from the history, e.g. {missing[:2]}")
            self.check(not twice, f"{clone.name}: {len(twice)} changes in the history more than once, e.g. {twice[:2]}")
            extra = [json.loads(k) for k in keys if k not in tracked and k not in self.seeded]
            for entry in extra:
                self.totals["entries the merge added"][entry["action"]] = self.totals["entries the merge added"].get(entry["action"], 0) + 1
            strange = [entry for entry in extra if entry.get("by_merge") is not True]
            self.check(not strange, f"{clone.name}: {len(strange)} history entries no clone made and no merge marked as its own, e.g. {strange[:1]}")
            got = units(store)

            def same(unit, one, two):  # a variant without a payload and an absent variant both have none
                return (one or "null") == (two or "null") if unit[1] == "payload" else one == two

            variants = {key: {name for name, _, _ in value[5]} for (key, kind, _, _), value in got.items() if kind == "allocation"}
            for unit, names in self.touched.items():
                allocation = (unit[0], "allocation", None, None)
                if unit[1] == "payload" and unit[2] not in variants.get(unit[0], ()):
                    # A payload goes with its variant (docs/git.md, rule 6): a variant removed by another
                    # clone's change of the allocation (a revert of its add-variant) takes the payload along.
                    if allocation in self.conflicted or self.touched.get(allocation, set()) - names:
                        self.totals["payloads gone with their variant"] += 1
                        continue
                if len(names) == 1 and unit not in self.conflicted:
                    (name,) = names
                    self.check(same(unit, got.get(unit), self.last_value[(unit, name)]),
                               f"{clone.name}: {unit}, changed by {name} only, holds {got.get(unit)!r}, not its last value {self.last_value[(unit, name)]!r}")
            for unit, value in self.initial.items():
                if unit not in self.touched:
                    self.check(same(unit, got.get(unit), value), f"{clone.name}: {unit}, changed by nobody, holds {got.get(unit)!r}")
            first = next((e for e in store["experiments"] if e["key"] == SEED_KEYS[0]), {})
            self.check(first.get("x_future") == {"rollout": "gradual"}, f"{clone.name}: the unknown field x_future was dropped")
        self.totals["changes"] += len(tracked)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/debug/abconsole")
    parser.add_argument("--long", action="store_true", help="12 seeds x 200 rounds")
    parser.add_argument("--seeds", type=int, default=None)
    parser.add_argument("--rounds", type=int, default=None, help="rounds per seed")
    parser.add_argument("--first-seed", type=int, default=28)
    parser.add_argument("--keep", action="store_true", help="keep the repositories of the last seed (prints where)")
    args = parser.parse_args()
    seeds = args.seeds or (12 if args.long else 4)
    rounds = args.rounds or (200 if args.long else 80)
    binary = os.path.abspath(args.bin)
    totals = {"passed": 0, "failed": 0, "failures": [], "rounds": 0, "conflicts": 0, "cli": 0, "refused": 0, "pulls": 0,
              "rejected": 0, "topic merges": 0, "settled": {}, "empty steps skipped": 0, "git s": 0.0, "git runs": 0, "abconsole s": 0.0, "abconsole runs": 0, "changes": 0, "entries the merge added": {}, "payloads gone with their variant": 0,
              "methods": {name: 0 for name in list(METHODS) + ["cherry-pick (nothing to pick: pull)",
                                                              "revert (nothing to revert: pull)", "stash (nothing saved: pull)"]}}
    started = time.monotonic()
    for seed in range(args.first_seed, args.first_seed + seeds):
        root = tempfile.mkdtemp(prefix=f"abconsole-team-{seed}-")
        sim = Sim(binary, seed, root, totals)
        try:
            sim.run(rounds)
        except Abort as error:
            sim.check(False, f"stopped: {error}")
        if args.keep and seed == args.first_seed + seeds - 1:
            print(f"kept: {root}")
        else:
            subprocess.run(["rm", "-rf", root])
    elapsed = time.monotonic() - started
    stops = [failure for failure in totals["failures"] if ": stopped: " in failure]
    others = [failure for failure in totals["failures"] if failure not in stops]
    for failure in others[:25] + stops:
        print("FAIL", failure)
    if len(others) > 25:
        print(f"... and {len(others) - 25} more")
    kinds = {}
    for failure in totals["failures"]:
        text = re.sub(r"^seed \d+ [^:]*: (\w+: )?", "", failure)
        text = re.sub(r"holds .*|: Auto-merging.*|\[[^]]*\]|\([^)]*\)|`[^`]*`|'[^']*'|\{.*\}|\d+", "…", text)[:80]
        kinds[text] = kinds.get(text, 0) + 1
    for text, count in sorted(kinds.items(), key=lambda item: -item[1]):
        print(f"failed {count:5d}× {text}")
    methods = ", ".join(f"{name} {count}" for name, count in totals["methods"].items() if count)
    added = ", ".join(f"{name} {count}" for name, count in sorted(totals["entries the merge added"].items())) or "none"
    print(f"team_sim: {seeds} seeds, {totals['rounds']} rounds in {elapsed:.0f} s; syncs: {methods}; {totals['pulls']} pulls, "
          f"{totals['rejected']} pushes rejected, {totals['topic merges']} topic merges; {totals['cli']} CLI changes "
          f"({totals['refused']} refused), {totals['changes']} tracked; {totals['conflicts']} conflicts settled ("
          f"{', '.join(f'{name} {count}' for name, count in sorted(totals['settled'].items()))}); "
          f"entries the merge added: {added}; {totals['payloads gone with their variant']} payloads gone with their variant; "
          f"{totals['empty steps skipped']} empty steps skipped; "
          f"{totals['git runs']} git runs ({totals['git s']:.0f} s, merge driver included), "
          f"{totals['abconsole runs']} abconsole runs ({totals['abconsole s']:.0f} s)")
    print(f"team_sim: {totals['passed']} passed, {totals['failed']} failed")
    sys.exit(1 if totals["failed"] else 0)


if __name__ == "__main__":
    main()
