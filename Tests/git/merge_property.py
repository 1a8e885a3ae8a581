#!/usr/bin/env python3
"""Property test of `abconsole merge` (SPEC section 11) with the real binary and real git.

    python3 Tests/git/merge_property.py --bin .build/debug/abconsole            # fast: 1,000 merges
    python3 Tests/git/merge_property.py --bin .build/debug/abconsole --long     # 10,000 merges, 100 through git

Each round: a random BASE store made through the CLI; several random "sides", each a copy of BASE
changed by a random sequence of CLI commands (ramps, whitelist add/remove/note/import, payloads,
descriptions, start/pause, resolve, create, add-variant, draft delete). Every ordered pair of
sides (OURS, THEIRS) is merged with `abconsole merge BASE OURS THEIRS`, and the result is checked
against units computed here, independently, from the three JSON files:

- sides touching disjoint units: exit 0, every unit takes the changed side's value, the history
  is BASE + both sides' new entries (as a set), revisions follow rule 5; for a sample whose
  THEIRS commands touch no unit OURS changed, the merged store equals replaying them on OURS
  through the CLI (units, and the history as a set of entries);
- a unit changed differently on both sides: exit 1 naming exactly those units (plus whitelist
  entries into a variant the merged allocation lacks, rule 6), OURS's value kept;
- the merged file always passes `abconsole validate`.

A subset of the pairs is merged by `git merge` in a real repository whose .gitattributes and
config point at the driver. The last line is `merge_property: N merges, M failed`.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

KEYS = ["alpha", "beta", "gamma", "delta", "eps"]
SUBJECTS = [f"user-{n}" for n in range(8)]
NOTES = ["", "qa", "vip", "beta tester"]
PAYLOADS = ['{"color":"red"}', '{"color":"blue"}', '[1,2]', '"text"', '42']
# The merges' clock (their revert entries' time), fixed so the byte path, the plain path and git's driver agree.
MERGE_NOW = {"ABCONSOLE_NOW": "2030-01-01T00:00:00Z"}


class Runner:
    def __init__(self, binary: str):
        self.binary = os.path.abspath(binary)
        self.spawns = 0

    def run(self, args, check=False, env_operator="alice", cwd=None, extra_env=None):
        self.spawns += 1
        env = dict(os.environ, ABCONSOLE_OPERATOR=env_operator, NO_COLOR="1", **(extra_env or {}))
        proc = subprocess.run([self.binary] + args, capture_output=True, text=True, env=env, cwd=cwd)
        if check and proc.returncode != 0:
            raise RuntimeError(f"{args}: exit {proc.returncode}: {proc.stderr.strip()}")
        return proc


def load(path):
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


# ---------------------------------------------------------------- commands

def random_weights(rng, names):
    total = rng.choice([100, 100, 100, 80, 50])
    cuts = sorted(rng.randint(0, total) for _ in range(len(names) - 1))
    parts = [b - a for a, b in zip([0] + cuts, cuts + [total])]
    return [f"{name}={part}" for name, part in zip(names, parts)]


def random_command(rng, store, tmp):
    """One valid-looking command for the store as it is (it may still be refused; then it is dropped)."""
    experiments = {e["key"]: e for e in store["experiments"]}
    live = [e for e in experiments.values() if e["status"] != "resolved"]
    choice = rng.random()
    if choice < 0.08 or not experiments:
        key = rng.choice([k for k in KEYS if k not in experiments] or KEYS)
        names = ["control", "treat"] if rng.random() < 0.7 else ["control", "a", "b"]
        return ["create", key, "--type", "user", "--variants", ",".join(random_weights(rng, names))]
    if not live:
        return ["set-description", rng.choice(list(experiments)), f"note {rng.randint(0, 99)}"]
    exp = rng.choice(live)
    key, names = exp["key"], [v["name"] for v in exp["variants"]]
    if choice < 0.22:
        return ["ramp", key] + random_weights(rng, names)
    if choice < 0.40:
        return ["whitelist", "add", key, rng.choice(SUBJECTS), rng.choice(names), "--note", rng.choice(NOTES), "--replace"]
    if choice < 0.48 and exp["whitelist"]:
        return ["whitelist", "remove", key, rng.choice(exp["whitelist"])["subject"]]
    if choice < 0.54 and exp["whitelist"]:
        return ["whitelist", "note", key, rng.choice(exp["whitelist"])["subject"], rng.choice(NOTES) + " changed"]
    if choice < 0.62:
        return ["set-payload", key, rng.choice(names), rng.choice(PAYLOADS)] if rng.random() < 0.8 else ["set-payload", key, rng.choice(names), "--clear"]
    if choice < 0.70:
        return ["set-description", key, f"what {key} tests, take {rng.randint(0, 99)}"]
    if choice < 0.78:
        return ["pause", key] if exp["status"] == "running" else ["start", key]
    if choice < 0.81 and exp["status"] in ("running", "paused"):
        return ["resolve", key, rng.choice(names)]
    if choice < 0.85:
        return ["add-variant", key, rng.choice(["extra", "more"])]
    if choice < 0.90 and exp["status"] == "draft":
        return ["delete", key]
    path = os.path.join(tmp, f"import-{rng.randint(0, 1 << 30)}.csv")
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        for subject in rng.sample(SUBJECTS, rng.randint(1, 3)):
            writer.writerow([subject, rng.choice(names), rng.choice(NOTES)])
    return ["whitelist", "import", key, path]


def apply_commands(runner, path, commands, operator, clock=None):
    """Runs each command on the store at `path` (at the times `clock()` gives, else now); returns those that succeeded."""
    done = []
    for command in commands:
        extra = {"ABCONSOLE_NOW": clock()} if clock else None
        if runner.run(["--store", path] + command, env_operator=operator, extra_env=extra).returncode == 0:
            done.append(command)
    return done


def random_side(runner, rng, base_path, path, tmp, operator, steps, clock=None):
    shutil.copyfile(base_path, path)
    done = []
    for _ in range(steps):
        command = random_command(rng, load(path), tmp)
        done += apply_commands(runner, path, [command], operator, clock)
    return done


# ---------------------------------------------------------------- units (independent of the Swift code)

def allocation(exp):
    return (exp["type"], exp["salt"], exp["control"], exp["status"], exp.get("winner"),
            tuple((v["name"], v["weight"], tuple(map(tuple, v["ranges"]))) for v in exp["variants"]))


def units(store):
    """(experiment, unit, variant, subject) -> value; existence is implied by the experiment's presence."""
    result = {}
    for exp in store["experiments"]:
        key = exp["key"]
        result[(key, "allocation", None, None)] = allocation(exp)
        result[(key, "description", None, None)] = exp["description"]
        for variant in exp["variants"]:
            result[(key, "payload", variant["name"], None)] = json.dumps(variant.get("payload"), sort_keys=True)
        for entry in exp["whitelist"]:
            result[(key, "whitelist", None, entry["subject"])] = (entry["variant"], entry["note"])
    return result


def experiments(store):
    return {e["key"]: e for e in store["experiments"]}


def expected_merge(base, ours, theirs):
    """The expected units of the merge, and the expected conflicts as (experiment, unit, variant, subject)."""
    eb, eo, et = experiments(base), experiments(ours), experiments(theirs)
    ub, uo, ut = units(base), units(ours), units(theirs)
    merged, conflicts = {}, set()
    for key in set(eb) | set(eo) | set(et):
        b, o, t = eb.get(key), eo.get(key), et.get(key)
        if o == t:
            chosen = o
        elif o == b:
            chosen = t
        elif t == b:
            chosen = o
        elif o is None or t is None:
            conflicts.add((key, "existence", None, None))
            chosen = o
        else:
            chosen = "units"
        if chosen is None:
            continue
        if chosen != "units":
            merged.update({k: v for k, v in units({"experiments": [chosen]}).items()})
            continue
        names = set()
        for unit in set(k for k in ub if k[0] == key) | set(k for k in uo if k[0] == key) | set(k for k in ut if k[0] == key):
            vb, vo, vt = ub.get(unit), uo.get(unit), ut.get(unit)
            if unit[1] == "payload":  # a variant without a payload and an absent variant both have none
                vb, vo, vt = vb or "null", vo or "null", vt or "null"
            if vo == vt or vt == vb:
                value = vo
            elif vo == vb:
                value = vt
            else:
                conflicts.add(unit)
                value = vo
            if value is not None:
                merged[unit] = value
        variants = {name for name, _, _ in merged[(key, "allocation", None, None)][5]}
        for unit in [u for u in merged if u[0] == key and u[1] == "payload" and u[2] not in variants]:
            del merged[unit]
        for unit in [u for u in merged if u[0] == key and u[1] == "whitelist" and merged[u][0] not in variants]:
            conflicts.add(unit)
            ours_value = uo.get(unit)
            if ours_value is not None and ours_value[0] in variants:
                merged[unit] = ours_value
            else:
                del merged[unit]
    return merged, conflicts


def changed_units(before, after):
    """The units `after` changed from `before`, existence included."""
    ub, ua = units(before), units(after)
    eb, ea = experiments(before), experiments(after)
    changed = {k for k in set(ub) | set(ua) if ub.get(k) != ua.get(k)}
    return changed | {(key, "existence") for key in set(eb) | set(ea) if (key in eb) != (key in ea)}


def touched_units(commands):
    """The units THEIRS's commands touch on the way (a payload set then cleared touches it too);
    ("exp", key) for a command that touches a whole experiment (create, delete)."""
    touched = set()
    for command in commands:
        if command[0] in ("create", "delete"):
            touched.add(("exp", command[1]))
        elif command[0] in ("ramp", "start", "pause", "resolve", "add-variant"):
            touched.add((command[1], "allocation", None, None))
            if command[0] == "add-variant":
                touched.add((command[1], "payload", command[2], None))
        elif command[0] == "set-payload":
            touched.add((command[1], "payload", command[2], None))
        elif command[0] == "set-description":
            touched.add((command[1], "description", None, None))
        elif command[:2] in (["whitelist", "add"], ["whitelist", "remove"], ["whitelist", "note"]):
            touched.add((command[2], "whitelist", None, command[3]))
        elif command[:2] == ["whitelist", "import"]:
            with open(command[3], encoding="utf-8", newline="") as handle:
                for row in csv.reader(handle):
                    touched.add((command[2], "whitelist", None, row[0]))
    return touched


def replay_applies(base, ours, commands):
    """Whether replaying `commands` on OURS must equal the merge: they touch no unit OURS changed."""
    changed = changed_units(base, ours)
    touched = touched_units(commands)
    for unit in changed:
        if unit in touched or ("exp", unit[0]) in touched:
            return False
    return True


def history_key(entry):
    return json.dumps(entry, sort_keys=True)


def history_problem(base, ours, theirs, merged):
    """What is wrong with the merged history by rule 4, computed from the three files; None when nothing."""
    counts = {}
    for side in (ours["history"], theirs["history"], base["history"]):
        seen = {}
        for entry in side:
            key = history_key(entry)
            seen[key] = seen.get(key, 0) + 1
        for key, count in seen.items():
            counts[key] = max(counts.get(key, 0), count)
    got = {}
    reverts = []
    for entry in merged["history"]:
        if entry.get("by_merge") is True:
            reverts.append(entry)
            if entry["action"] != "revert":
                return f"an entry marked as the merge's is not a revert: {entry}"
            continue
        key = history_key(entry)
        got[key] = got.get(key, 0) + 1
    if got != counts:
        extra = sorted(set(got.items()) ^ set(counts.items()))[:3]
        return f"the merged history is not each entry of OURS, THEIRS and BASE once: {extra}"
    if [e["at"] for e in merged["history"]] != sorted(e["at"] for e in merged["history"]):
        return "the merged history is not in time order"
    # The history explains the merged values: an experiment taking a side's units without an entry
    # of that side beyond BASE's has a revert entry; one whose every side explains it has none.
    eb, em = experiments(base), experiments(merged)
    known = {history_key(e) for e in base["history"]}
    for name, side in (("OURS", ours), ("THEIRS", theirs)):
        explained = {e["experiment"] for e in side["history"] if history_key(e) not in known}
        es = experiments(side)
        for key in set(eb) | set(es):
            took = [u for u in changed_units_of(key, base, side) if unit_value(merged, u) == unit_value(side, u)]
            if took and key not in explained and not any(r["experiment"] == key for r in reverts):
                return f"{name}'s unexplained {took[:2]} of {key} has no revert entry"
    for revert in reverts:
        key = revert["experiment"]
        if all(key in {e["experiment"] for e in s["history"] if history_key(e) not in known} for s in (ours, theirs)):
            return f"a revert entry for {key}, which both sides explain"
    return None


def changed_units_of(key, before, after):
    """The units of experiment `key` that differ between two stores (existence as ("existence"))."""
    return sorted((u for u in changed_units(before, after) if u[0] == key and unit_value(before, u) != unit_value(after, u)), key=str)


def unit_value(store, unit):
    if unit[1] == "existence":
        return unit[0] in experiments(store)
    value = units(store).get(unit)
    return (value or "null") if unit[1] == "payload" else value


def check_pair(runner, tmp, base_path, ours_path, theirs_path, theirs_commands, replay, validate, failures, label, stats):
    base, ours, theirs = load(base_path), load(ours_path), load(theirs_path)
    merged_path = os.path.join(tmp, "merged.json")
    if os.path.exists(merged_path):
        os.remove(merged_path)
    proc = runner.run(["merge", base_path, ours_path, theirs_path, "--out", merged_path, "--json"], extra_env=MERGE_NOW)
    expected, expected_conflicts = expected_merge(base, ours, theirs)

    def fail(message):
        failures.append(f"{label}: {message}")

    if proc.returncode not in (0, 1):
        return fail(f"merge exit {proc.returncode}: {proc.stderr.strip()}")
    # The merge computed from the files' bytes must give exactly the plain path's output and bytes.
    plain_path = os.path.join(tmp, "merged-plain.json")
    if os.path.exists(plain_path):
        os.remove(plain_path)
    plain = runner.run(["merge", base_path, ours_path, theirs_path, "--out", plain_path, "--json"],
                       extra_env=dict(MERGE_NOW, ABCONSOLE_PLAIN_MERGE="1"))
    if (plain.returncode, plain.stdout) != (proc.returncode, proc.stdout):
        return fail(f"plain merge differs: exit {plain.returncode} vs {proc.returncode}, output {plain.stdout!r} vs {proc.stdout!r}")
    with open(plain_path, "rb") as one, open(merged_path, "rb") as two:
        if one.read() != two.read():
            return fail("the merged file differs from the plain merge's")
    stats["plain_compared"] = stats.get("plain_compared", 0) + 1
    reported = {(c["experiment"], c["unit"], c["variant"], c["subject"]) for c in json.loads(proc.stdout)["conflicts"]}
    if reported != expected_conflicts:
        return fail(f"conflicts {sorted(map(str, reported))} != expected {sorted(map(str, expected_conflicts))}")
    if proc.returncode != (1 if expected_conflicts else 0):
        return fail(f"exit {proc.returncode} with {len(expected_conflicts)} expected conflicts")
    merged = load(merged_path)
    got = units(merged)
    if got != expected:
        diff = sorted(set(got.items()) ^ set(expected.items()), key=str)[:4]
        return fail(f"merged units differ: {diff}")
    # History (rule 4): every entry of OURS, THEIRS and BASE once (a side's repeated entry as often
    # as the side holding it most), in time order, plus the merge's `revert` entries.
    history = merged["history"]
    problem = history_problem(base, ours, theirs, merged)
    if problem:
        return fail(problem)
    if any(e.get("by_merge") for e in history):
        stats["reverted"] = stats.get("reverted", 0) + 1
    # Rule 8: a side equal to BASE, or equal sides, give the other side unchanged.
    if ours == base or theirs == base or ours == theirs:
        if merged != (theirs if ours == base else ours):
            return fail("a merge with a side equal to BASE (or equal sides) did not give the other side unchanged")
        stats["unchanged"] = stats.get("unchanged", 0) + 1
        return None
    # Rule 5: revisions.
    rb, ro, rt = base["revision"], ours["revision"], theirs["revision"]
    want = max(ro, rt) + 1 if ro != rb and rt != rb else (rt if rt != rb else ro)
    if merged["revision"] != want:
        return fail(f"store revision {merged['revision']} != {want}")
    eb, eo, et = experiments(base), experiments(ours), experiments(theirs)
    for key, exp in experiments(merged).items():
        b, o, t = eb.get(key), eo.get(key), et.get(key)
        if o is not None and t is not None and o != b and t != b and o != t:
            if exp["revision"] != max(o["revision"], t["revision"]) + 1:
                return fail(f"revision of {key} is {exp['revision']}, not max+1")
    if validate and runner.run(["--store", merged_path, "validate"]).returncode != 0:
        return fail("the merged store does not validate")
    stats["conflicted" if expected_conflicts else "clean"] += 1
    # Replaying THEIRS's commands on OURS equals the merge when they touch no unit OURS changed (an
    # equal change on both sides merges cleanly, but its replay reads as a replacement; a payload
    # THEIRS set and cleared again is unchanged for the merge, but its replay clears OURS's).
    operator, commands = theirs_commands
    if replay and not expected_conflicts and replay_applies(base, ours, commands):
        replay_path = os.path.join(tmp, "replay.json")
        shutil.copyfile(ours_path, replay_path)
        done = apply_commands(runner, replay_path, commands, operator)
        if len(done) == len(commands):  # a command refused on OURS (e.g. a whitelist add after OURS resolved) proves nothing
            stats["replayed"] += 1
            replayed = units(load(replay_path))
            if replayed != got:
                diff = sorted(set(replayed.items()) ^ set(got.items()), key=str)[:4]
                return fail(f"the merged store differs from replaying THEIRS's commands {commands} on OURS: {diff}")
            strip = lambda h: sorted(json.dumps([e["experiment"], e["action"], e["before"], e["after"], e["operator"]]) for e in h)
            if strip(load(replay_path)["history"]) != strip(history):
                extra = set(strip(load(replay_path)["history"])) ^ set(strip(history))
                return fail(f"the merged history differs from replaying THEIRS's commands on OURS (as a set): {sorted(extra)[:4]}")
    return None


def skewed_clock(rng):
    """Times around now, up to ten minutes either way: the clocks of machines that disagree."""
    import datetime
    now = datetime.datetime.now(datetime.timezone.utc)
    return lambda: (now + datetime.timedelta(seconds=rng.randint(-600, 600))).strftime("%Y-%m-%dT%H:%M:%SZ")


def multi_round(runner, rng, tmp, base_path, sides, failures, stats, label):
    """Merges whose inputs are earlier merges' outputs, as a team's day makes them (none may be refused):
    a second pull after a first, a rebase of two commits, a cherry-pick, a revert, a criss-cross."""
    clock = skewed_clock(rng)
    i, j = rng.sample(range(len(sides)), 2)
    ours, theirs = sides[i][0], sides[j][0]
    path = lambda name: os.path.join(tmp, f"multi-{name}.json")

    def merged(name, base, one, two):
        """`abconsole merge` of the three, checked like any pair; the output's path (None when it failed)."""
        before = len(failures)
        check_pair(runner, tmp, base, one, two, (None, []), False, True, failures, f"{label} {name}", stats)
        stats["multi"] = stats.get("multi", 0) + 1
        if len(failures) != before:
            return None
        shutil.copyfile(os.path.join(tmp, "merged.json"), path(name))
        return path(name)

    def go_on(name, start, operator):
        """`start` changed further by one to three commands at skewed times; checked to stay in time order."""
        random_side(runner, rng, start, path(name), tmp, operator, rng.randint(1, 3), clock)
        times = [e["at"] for e in load(path(name))["history"]]
        if times != sorted(times):
            failures.append(f"{label} {name}: a change at a skewed time left the history out of time order")
        return path(name)

    # OURS pulls THEIRS, THEIRS goes on, OURS pulls again: BASE (THEIRS before) is no prefix of OURS's history.
    first = merged("pull-1", base_path, ours, theirs)
    later = go_on("theirs-later", theirs, "carol")
    second = first and merged("pull-2", theirs, first, later)
    # OURS rebases its two commits onto THEIRS's: each pick merges (BASE: the commit's parent, OURS: the new base).
    own = go_on("ours-later", ours, "dave")
    pick1 = merged("rebase-1", base_path, later, ours)
    pick1 and merged("rebase-2", ours, pick1, own)
    # A cherry-pick of THEIRS's later commit onto OURS's branch.
    merged("cherry-pick", theirs, own, later)
    # git revert of OURS's later commit on the pulled store: BASE the commit, THEIRS its parent.
    if second:
        tip = merged("into-own", ours, own, second)
        tip and merged("revert", own, tip, ours)
    # Criss-cross: the merge of two merge bases as BASE of the next merge.
    if first and second:
        merged("criss-cross", first, second, merged("other-way", base_path, theirs, ours) or theirs)


def git(cwd, *args, check=True):
    proc = subprocess.run(["git"] + list(args), cwd=cwd, capture_output=True, text=True,
                          env=dict(os.environ, **MERGE_NOW, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@x", GIT_COMMITTER_NAME="t",
                                   GIT_COMMITTER_EMAIL="t@x", GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1"))
    if check and proc.returncode != 0:
        raise RuntimeError(f"git {args}: {proc.stderr.strip()}")
    return proc


def check_git_merge(runner, tmp, base_path, ours_path, theirs_path, failures, label):
    """The same pair merged by `git merge` with the driver configured: the file equals `abconsole merge`'s."""
    repo = os.path.join(tmp, "repo")
    shutil.rmtree(repo, ignore_errors=True)
    os.makedirs(repo)
    git(repo, "init", "-q", "-b", "main")
    binary = os.path.abspath(runner.binary)
    git(repo, "config", "merge.abconsole.driver", f"'{binary}' merge %O %A %B --name %P")
    git(repo, "config", "merge.abconsole.name", "abconsole store merge")
    with open(os.path.join(repo, ".gitattributes"), "w") as handle:
        handle.write("experiments.json merge=abconsole diff=abconsole\n")
    store = os.path.join(repo, "experiments.json")
    shutil.copyfile(base_path, store)
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "base")
    git(repo, "checkout", "-q", "-b", "theirs")
    shutil.copyfile(theirs_path, store)
    git(repo, "commit", "-q", "--allow-empty", "-am", "theirs")
    git(repo, "checkout", "-q", "main")
    shutil.copyfile(ours_path, store)
    git(repo, "commit", "-q", "--allow-empty", "-am", "ours")
    merge = git(repo, "merge", "-q", "--no-edit", "theirs", check=False)
    want = os.path.join(tmp, "want.json")
    expected = runner.run(["merge", base_path, ours_path, theirs_path, "--out", want], extra_env=MERGE_NOW)
    if (merge.returncode == 0) != (expected.returncode == 0):
        return failures.append(f"{label}: git merge exit {merge.returncode}, abconsole merge exit {expected.returncode}")
    with open(store, "rb") as a, open(want, "rb") as b:
        if a.read() != b.read():
            return failures.append(f"{label}: git merge's file differs from abconsole merge's")
    if merge.returncode != 0:
        stages = git(repo, "ls-files", "--stage", "-z", "--", "experiments.json").stdout.split("\0")
        if len([s for s in stages if s]) != 3:
            failures.append(f"{label}: a conflicted merge did not leave the three stages in the index")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/debug/abconsole")
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--long", action="store_true", help="10,000 merges, 100 through git")
    parser.add_argument("--merges", type=int, default=None)
    parser.add_argument("--git-merges", type=int, default=None)
    args = parser.parse_args()
    merges = args.merges or (10_000 if args.long else 1_000)
    git_merges = args.git_merges if args.git_merges is not None else (100 if args.long else 12)
    sides_per_base = 8                       # 8 sides -> 56 ordered pairs per BASE
    replay_every = 8                         # replay THEIRS's commands for one pair in 8
    multi_every = 25                         # one in 25 pairs also starts a run of merges of merges
    validate_every = 10                      # `abconsole validate` on one merged file in 10 (merge validates before writing)
    rng = random.Random(args.seed)
    runner = Runner(args.bin)
    failures, done, through_git = [], 0, 0
    stats = {"clean": 0, "conflicted": 0, "replayed": 0}
    have_git = shutil.which("git") is not None
    with tempfile.TemporaryDirectory(prefix="abconsole-merge-") as tmp:
        round_number = 0
        while done < merges:
            round_number += 1
            base_path = os.path.join(tmp, "base.json")
            if os.path.exists(base_path):
                os.remove(base_path)
            for key in rng.sample(KEYS, rng.randint(1, 3)):
                runner.run(["--store", base_path, "create", key, "--type", "user", "--variants", "control=50,treat=50"], check=True)
                if rng.random() < 0.6:
                    runner.run(["--store", base_path, "start", key], check=True)
            random_side(runner, rng, base_path, os.path.join(tmp, "seed.json"), tmp, "carol", rng.randint(0, 4))
            shutil.copyfile(os.path.join(tmp, "seed.json"), base_path)
            sides = []
            for index in range(sides_per_base):
                path = os.path.join(tmp, f"side{index}.json")
                # Some sides do nothing, some touch little (disjoint pairs are common), some a lot.
                steps = rng.choice([0, 1, 1, 2, 3, 5])
                operator = "alice" if index % 2 else "bob"
                sides.append((path, (operator, random_side(runner, rng, base_path, path, tmp, operator, steps))))
            for i, (ours_path, _) in enumerate(sides):
                for j, (theirs_path, theirs_commands) in enumerate(sides):
                    if i == j or done >= merges:
                        continue
                    done += 1
                    label = f"round {round_number} pair {i}/{j}"
                    check_pair(runner, tmp, base_path, ours_path, theirs_path, theirs_commands, done % replay_every == 0,
                               done % validate_every == 0 or done % replay_every == 0, failures, label, stats)
                    if done % multi_every == 0:
                        multi_round(runner, rng, tmp, base_path, sides, failures, stats, label + " (multi-round)")
                    if have_git and through_git < git_merges and done % max(1, merges // max(1, git_merges)) == 0:
                        through_git += 1
                        check_git_merge(runner, tmp, base_path, ours_path, theirs_path, failures, label + " (git)")
    for failure in failures[:20]:
        print("FAIL", failure)
    print(f"merge_property: {done} merges ({stats['clean']} clean, {stats['conflicted']} with conflicts, "
          f"{stats['replayed']} replayed through the CLI, {through_git} through git merge, "
          f"{stats.get('plain_compared', 0)} equal to the plain merge, {stats.get('multi', 0)} of merges' outputs, "
          f"{stats.get('unchanged', 0)} with a side unchanged, {stats.get('reverted', 0)} with a revert entry), {len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
