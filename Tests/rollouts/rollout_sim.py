#!/usr/bin/env python3
"""A ramp plan carried out by `abconsole advance` (SPEC section 14), with the real binary, real git
and event logs the test writes with the real bucketing.

    python3 Tests/rollouts/rollout_sim.py --bin .build/debug/abconsole

One store in a git repository set up with `git-setup --commit-changes`; the clock is set per call
(ABCONSOLE_NOW). Each phase's exposures are bucketed by `abconsole assign EXP --subjects -` under
that phase's weights, so the logs say what clients were told. Checked:

- `checkout` (control=100 before the plan; steps green=10, 30, 60; a day's hold; 1,500 subjects):
  a hold before the hold time, a hold below the subject count, a dry run that writes nothing, the
  advance (history `advance`, one commit naming the experiment, the step and the evidence), a
  second run at the same time and evidence that changes nothing, and the last step finishing the
  plan (`done`); then `advance` has nothing left to do;
- at every step the share of subjects that switched variant equals the total-variation distance
  between the weights, exactly over the 10,000 buckets and over 20,000 probe subjects, and no
  subject moved but from a variant that shrank to one that grew;
- a sample-ratio mismatch held (`--on-srm hold`, the default) and rolled back (`--on-srm rollback`);
- a failing guardrail rolled back to the weights the plan started from at once (before the hold
  and the subject count), plan state `rolled_back`, one commit `rollback ...`;
- a guardrail without data held; a draft under a plan is never started;
- evidence that cannot be read: exit 65, nothing written; a --summary for two experiments: 64;
- a --summary from the warehouse decides as the logs do.
The last line is `rollout_sim: N passed, M failed`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from datetime import datetime, timedelta, timezone

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "crosscheck"))
import reference  # noqa: E402  (the independent bucketing of SPEC section 2)

GIT_ENV = dict(GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1", GIT_AUTHOR_NAME="ci", GIT_AUTHOR_EMAIL="ci@x",
               GIT_COMMITTER_NAME="ci", GIT_COMMITTER_EMAIL="ci@x")
T0 = datetime(2026, 11, 2, 9, 0, 0, tzinfo=timezone.utc)
PROBES = [f"probe-{i}" for i in range(20_000)]


def stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


class Sim:
    def __init__(self, binary: str, repo: str):
        self.binary, self.repo = binary, repo
        self.passed, self.failures = 0, []
        self.exposures = os.path.join(repo, "events", "exposures.jsonl")
        self.conversions = os.path.join(repo, "events", "conversions.jsonl")
        os.makedirs(os.path.dirname(self.exposures))
        open(self.exposures, "w").close()
        open(self.conversions, "w").close()
        self.rng = random.Random(31)

    # -- processes ------------------------------------------------------------------------------

    def run(self, args, now: datetime, stdin: str | None = None):
        env = dict(os.environ, **GIT_ENV, ABCONSOLE_OPERATOR="ci", ABCONSOLE_NOW=stamp(now))
        return subprocess.run([self.binary] + args, cwd=self.repo, input=stdin, capture_output=True, text=True, env=env)

    def must(self, args, now: datetime, stdin: str | None = None):
        proc = self.run(args, now, stdin)
        if proc.returncode != 0:
            raise SystemExit(f"rollout_sim: `{' '.join(args)}` exited {proc.returncode}: {proc.stderr.strip()}")
        return proc

    def git(self, *args) -> str:
        return subprocess.run(["git"] + list(args), cwd=self.repo, capture_output=True, text=True,
                              env=dict(os.environ, **GIT_ENV)).stdout

    def expect(self, condition, message):
        if condition:
            self.passed += 1
        else:
            self.failures.append(message)

    def ramp_plan(self, key: str, greens, now: datetime, on_srm="hold"):
        """`ramp-plan KEY green=N ... --hold 1d --min-subjects 1500 --on-srm ON_SRM` (the first step applies at once on a running experiment)."""
        self.must(["ramp-plan", key] + [f"green={g}" for g in greens] + ["--hold", "1d", "--min-subjects", "1500", "--on-srm", on_srm], now)

    def store_bytes(self) -> bytes:
        with open(os.path.join(self.repo, "experiments.json"), "rb") as handle:
            return handle.read()

    def show(self, key: str, now: datetime) -> dict:
        return json.loads(self.must(["show", key, "--json"], now).stdout)

    def advance(self, keys, now: datetime, *extra):
        proc = self.run(["advance"] + list(keys) + list(extra) + ["--json"], now)
        decisions = json.loads(proc.stdout)["decisions"] if proc.returncode == 0 else []
        return proc, {d["experiment"]: d for d in decisions}

    # -- bucketing and logs ---------------------------------------------------------------------

    def assign(self, key: str, subjects, now: datetime) -> dict:
        """What clients are told now: `assign KEY --subjects -`, one JSON object a line."""
        out = self.must(["assign", key, "--subjects", "-", "--json"], now, stdin="\n".join(subjects) + "\n").stdout
        told = {}
        for line in out.splitlines():
            row = json.loads(line)
            told[row["subject"]] = row["variants"][key]
        return told

    def expose(self, key: str, subjects, start: datetime, hours: float, now: datetime,
               purchase=0.10, refund: dict | None = None, drop: dict | None = None):
        """Exposures of `subjects` under the weights in force, at times in (start, start + hours], and their conversions.

        `refund` maps a variant to its refund rate (no refund rows when None); `drop` leaves out that
        share of a variant's subjects (a client that fails to log: a sample-ratio mismatch)."""
        told = self.assign(key, subjects, now)
        with open(self.exposures, "a") as exposures, open(self.conversions, "a") as conversions:
            for subject in subjects:
                variant = told[subject]
                if drop and self.rng.random() < drop.get(variant, 0):
                    continue
                seen = start + timedelta(seconds=1 + self.rng.random() * (hours * 3600 - 2))
                exposures.write(json.dumps({"timestamp": stamp(seen), "experiment": key, "variant": variant, "subject": subject}) + "\n")
                later = seen + timedelta(seconds=1)
                if self.rng.random() < purchase:
                    conversions.write(json.dumps({"timestamp": stamp(later), "subject": subject, "metric": "purchase"}) + "\n")
                if refund is not None and self.rng.random() < refund.get(variant, 0):
                    conversions.write(json.dumps({"timestamp": stamp(later), "subject": subject, "metric": "refund"}) + "\n")
        return told

    # -- moved subjects ------------------------------------------------------------------------

    @staticmethod
    def owners(shown: dict) -> list:
        owner = [None] * 10_000
        for variant in shown["variants"]:
            for start, end in variant["ranges"]:
                for bucket in range(start, end):
                    owner[bucket] = variant["name"]
        return owner

    @staticmethod
    def weights(shown: dict) -> dict:
        return {variant["name"]: round(variant["weight"] * 100) for variant in shown["variants"]}

    def check_minimal_move(self, label: str, before: dict, after: dict, told_before: dict, told_after: dict, text: str | None):
        """The buckets that changed owner number the total-variation distance; a probe moved only from a shrinking variant to a growing one."""
        old, new = self.weights(before), self.weights(after)
        tv = sum(max(0, new.get(name, 0) - old.get(name, 0)) for name in set(old) | set(new))
        tv += max(0, (10_000 - sum(new.values())) - (10_000 - sum(old.values())))
        owner_before, owner_after = self.owners(before), self.owners(after)
        changed = sum(1 for a, b in zip(owner_before, owner_after) if a != b)
        self.expect(changed == tv, f"{label}: {changed} buckets changed owner, the total-variation distance is {tv}")
        salt = after["salt"]
        moved = 0
        wrong = []
        for subject in PROBES:
            bucket = reference.bucket(salt, subject)
            if told_before[subject] != told_after[subject]:
                moved += 1
                shrank = new.get(told_before[subject], 0) < old.get(told_before[subject], 0)
                grew = new.get(told_after[subject], 0) > old.get(told_after[subject], 0)
                if not (shrank and grew and owner_before[bucket] != owner_after[bucket]):
                    wrong.append(subject)
            if told_after[subject] != (owner_after[bucket] or after["control"]):
                wrong.append(subject + " (assign disagrees with the ranges)")
        expected_moved = sum(1 for s in PROBES if owner_before[reference.bucket(salt, s)] != owner_after[reference.bucket(salt, s)])
        self.expect(not wrong, f"{label}: subjects moved that did not need to: {wrong[:5]}")
        self.expect(moved == expected_moved, f"{label}: {moved} probes switched, {expected_moved} sit in buckets that changed owner")
        self.expect(abs(moved / len(PROBES) - tv / 10_000) < 0.015, f"{label}: {moved / len(PROBES):.4f} of probes switched, distance {tv / 10_000}")
        if text is not None:
            share = f"{tv / 100:g} % of subjects switched variant"
            self.expect(share in text, f"{label}: the advance says `{text.strip()}`, expected `{share}`")


def percent(shown: dict) -> dict:
    return {variant["name"]: variant["weight"] for variant in shown["variants"]}


def phase_summary(sim: Sim, key: str, since: datetime, until: datetime, path: str):
    """The --summary CSV of the phase [since, until] from the logs, as the warehouse SQL would aggregate it (no subject in two variants here)."""
    first = {}
    with open(sim.exposures) as handle:
        for line in handle:
            row = json.loads(line)
            at = datetime.strptime(row["timestamp"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)
            if row["experiment"] == key and since <= at <= until:
                old = first.get(row["subject"])
                first[row["subject"]] = (row["variant"], min(at, old[1]) if old else at)
    converted = {}
    with open(sim.conversions) as handle:
        for line in handle:
            row = json.loads(line)
            at = datetime.strptime(row["timestamp"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)
            if row["subject"] in first and first[row["subject"]][1] <= at <= until:
                converted.setdefault(row["metric"], set()).add(row["subject"])
    variants = sorted({variant for variant, _ in first.values()})
    with open(path, "w") as out:
        out.write("metric,type,variant,subjects,sum,sum_squares\n")
        for metric in sorted(converted):
            for variant in variants:
                members = [s for s, (v, _) in first.items() if v == variant]
                hits = sum(1 for s in members if s in converted[metric])
                out.write(f"{metric},proportion,{variant},{len(members)},{hits},{hits}\n")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/debug/abconsole")
    binary = os.path.abspath(parser.parse_args().bin)
    with tempfile.TemporaryDirectory(prefix="abconsole-rollout-") as repo:
        sim = Sim(binary, repo)
        sim.git("init", "-q", "-b", "main")
        now = T0 - timedelta(hours=1)
        for key in ["checkout", "banner_hold", "banner_rb", "paywall", "search", "later"]:
            sim.must(["create", key, "--type", "user", "--variants", "control=100,green=0"], now)
        sim.must(["set-metrics", "checkout", "--goal", "purchase", "--guardrail", "refund:decrease"], now)
        sim.must(["set-metrics", "paywall", "--goal", "purchase", "--guardrail", "refund:decrease"], now)
        sim.must(["set-metrics", "search", "--goal", "purchase", "--guardrail", "latency_errors:decrease"], now)
        sim.must(["git-setup", "--commit-changes"], now)
        sim.git("add", "-A")
        sim.git("commit", "-q", "-m", "the store")
        for key in ["checkout", "banner_hold", "banner_rb", "paywall", "search"]:
            sim.must(["start", key], now)
        now = T0
        sim.ramp_plan("checkout", [10, 30, 60], now)
        sim.ramp_plan("banner_hold", [20, 50], now)
        sim.ramp_plan("banner_rb", [20, 50], now, on_srm="rollback")
        sim.ramp_plan("paywall", [20, 50], now)
        sim.ramp_plan("search", [20, 50], now)
        sim.ramp_plan("later", [20, 50], now)  # a draft: its first step applies at start
        shown = sim.show("checkout", now)
        sim.expect(percent(shown) == {"control": 90, "green": 10}, f"the first step applies at once: {percent(shown)}")

        rollout(sim, shown)
        guarded(sim)
        refusals(sim)
    print("\n".join("FAIL: " + failure for failure in sim.failures))
    print(f"rollout_sim: {sim.passed} passed, {len(sim.failures)} failed")
    sys.exit(1 if sim.failures else 0)


def rollout(sim: Sim, shown: dict):
    """`checkout` from its first step to done."""
    pool = [f"u{i}" for i in range(10_000)]
    phase = T0
    told = sim.assign("checkout", PROBES, phase)
    # Step 1: 1,000 subjects in the first 20 hours.
    sim.expose("checkout", pool[:1000], phase, 20, phase, refund={"control": 0.02, "green": 0.02})
    head = sim.git("rev-parse", "HEAD")
    before = sim.store_bytes()
    proc, decisions = sim.advance(["checkout"], phase + timedelta(hours=21))
    decision = decisions.get("checkout", {})
    sim.expect(proc.returncode == 0 and decision.get("action") == "hold", f"before the hold: {proc.returncode} {decision} {proc.stderr}")
    sim.expect("held 21h (hold 24h)" in decision.get("reason", "") and "the next advance can come at" in decision.get("reason", ""),
               f"before the hold, the reason: {decision.get('reason')}")
    sim.expect(decision.get("step") == 1 and decision.get("steps") == 3 and decision.get("weights") == {"control": 90, "green": 10},
               f"a hold keeps step 1: {decision}")
    proc, decisions = sim.advance(["checkout"], phase + timedelta(hours=25))
    decision = decisions.get("checkout", {})
    sim.expect(decision.get("action") == "hold" and decision.get("reason", "").startswith("1,000 analysed subjects (at least 1,500)"),
               f"below the subject count: {decision}")
    sim.expect(sim.store_bytes() == before and sim.git("rev-parse", "HEAD") == head, "a hold wrote or committed something")
    # 1,000 more subjects: the step may advance; a dry run first.
    sim.expose("checkout", pool[1000:2000], phase, 24, phase, refund={"control": 0.02, "green": 0.02})
    at = phase + timedelta(hours=25)
    proc = sim.run(["advance", "checkout", "--dry-run"], at)
    sim.expect(proc.returncode == 0 and proc.stdout.startswith("dry run: advance checkout: step 2 of 3, control=70,green=30")
               and proc.stdout.strip().endswith("nothing was written"), f"dry run: {proc.stdout} {proc.stderr}")
    sim.expect(sim.store_bytes() == before and sim.git("rev-parse", "HEAD") == head, "a dry run wrote or committed something")
    steps = [(at, {"control": 70, "green": 30}, 2)]
    text = sim.run(["advance", "checkout"], at)
    sim.expect(text.returncode == 0 and text.stdout.startswith("advance checkout: step 2 of 3, control=70,green=30"), f"advance: {text.stdout} {text.stderr}")
    after = sim.show("checkout", at)
    sim.expect(percent(after) == {"control": 70, "green": 30}, f"step 2's weights: {percent(after)}")
    told_after = sim.assign("checkout", PROBES, at)
    sim.check_minimal_move("step 1 → 2", shown, after, told, told_after, text.stdout)
    message = sim.git("log", "-1", "--format=%B")
    sim.expect(message.startswith("advance checkout: step 1/3 control=90,green=10 → step 2/3 control=70,green=30: held 1d 1h (hold 24h), "
                                  "2,000 analysed subjects (at least 1,500), sample ratio ok (p = ")
               and "guardrails ok; ramp checkout: control=90,green=10 → control=70,green=30\n\nOperator: ci" in message, f"the advance's commit: {message}")
    history = json.loads(sim.must(["history", "checkout", "--json"], at).stdout)
    sim.expect([e["action"] for e in history[-2:]] == ["advance", "ramp"] and history[-1]["before"] == "control=90,green=10"
               and history[-2]["after"].startswith("step 2/3 control=70,green=30: held 1d 1h"), f"history: {history[-2:]}")
    # The same time and evidence: nothing changes.
    head, before = sim.git("rev-parse", "HEAD"), sim.store_bytes()
    proc, decisions = sim.advance(["checkout"], at)
    sim.expect(decisions.get("checkout", {}).get("action") == "hold" and sim.store_bytes() == before and sim.git("rev-parse", "HEAD") == head,
               f"a second run at the same time and evidence: {decisions} {proc.stderr}")
    # Step 2 → 3, the last: done at once.
    phase, shown, told = at, after, told_after
    sim.expose("checkout", pool[2000:4000], phase, 30, phase, refund={"control": 0.02, "green": 0.02})
    at = phase + timedelta(hours=30, minutes=5)
    text = sim.run(["advance"], at)  # every running experiment with an active plan
    sim.expect(text.returncode == 0 and "done checkout: step 3 of 3, control=40,green=60" in text.stdout, f"the last step: {text.stdout} {text.stderr}")
    after = sim.show("checkout", at)
    sim.expect(after.get("plan", {}).get("state") == "done" and after.get("plan", {}).get("step") == 3, f"the plan is done: {after.get('plan')}")
    sim.check_minimal_move("step 2 → 3", shown, after, told, sim.assign("checkout", PROBES, at), text.stdout)
    proc, decisions = sim.advance(["checkout"], at + timedelta(days=3))
    sim.expect(decisions.get("checkout", {}).get("action") == "none" and "done" in decisions.get("checkout", {}).get("reason", ""),
               f"after done: {decisions}")
    log = sim.git("log", "--format=%s", "--", "experiments.json").splitlines()
    advances = [line for line in log if line.startswith("advance checkout:")]
    sim.expect(len(advances) == 2 and advances[0].startswith("advance checkout: step 2/3 control=70,green=30 → step 3/3 control=40,green=60: held 1d 6h (hold 24h)"),
               f"one commit per step: {advances}")


def guarded(sim: Sim):
    """Sample-ratio mismatches, a failing guardrail, a guardrail without data, a draft (each plan at step 1 since T0)."""
    for key in ["banner_hold", "banner_rb"]:
        sim.expose(key, [f"{key}-{i}" for i in range(3000)], T0, 20, T0, refund={"control": 0.02, "green": 0.02}, drop={"green": 0.5})
    sim.expose("paywall", [f"pay-{i}" for i in range(1200)], T0, 2, T0, refund={"control": 0.05, "green": 0.30})
    sim.expose("search", [f"search-{i}" for i in range(3000)], T0, 20, T0)
    at = T0 + timedelta(hours=3)
    head = sim.git("rev-parse", "HEAD")
    proc, decisions = sim.advance(["banner_hold", "banner_rb", "paywall", "search", "later"], at)
    sim.expect(proc.returncode == 0, f"advance of five: {proc.returncode} {proc.stderr}")
    hold = decisions.get("banner_hold", {})
    sim.expect(hold.get("action") == "hold" and "sample ratio MISMATCH" in hold.get("reason", ""), f"a mismatch holds by default: {hold}")
    rolled = decisions.get("banner_rb", {})
    sim.expect(rolled.get("action") == "rollback" and rolled.get("weights") == {"control": 100, "green": 0}
               and rolled.get("reason", "").startswith("sample ratio MISMATCH"), f"a mismatch with --on-srm rollback: {rolled}")
    paywall = decisions.get("paywall", {})
    sim.expect(paywall.get("action") == "rollback" and paywall.get("weights") == {"control": 100, "green": 0}
               and paywall.get("reason", "").startswith("guardrail refund FAILS for green (one-sided p = "),
               f"a failing guardrail rolls back, 3 hours in and below the subject count: {paywall}")
    shown = sim.show("paywall", at)
    sim.expect(percent(shown) == {"control": 100, "green": 0} and shown.get("plan", {}).get("state") == "rolled_back",
               f"paywall after the rollback: {percent(shown)} {shown.get('plan')}")
    search = decisions.get("search", {})
    sim.expect(search.get("action") == "hold" and "guardrail latency_errors: no data" in search.get("reason", ""), f"a guardrail without data: {search}")
    later = decisions.get("later", {})
    sim.expect(later.get("action") == "none" and sim.show("later", at)["status"] == "draft", f"a draft is never started: {later}")
    subjects = sim.git("log", "--format=%s", f"{head.strip()}..HEAD").splitlines()
    sim.expect(len(subjects) == 2 and any(s.startswith("rollback paywall: step 1/2 control=80,green=20 → rolled back to control=100,green=0: guardrail refund FAILS for green (one-sided p = ")
                                          and s.endswith("; ramp paywall: control=80,green=20 → control=100,green=0")
                                          for s in subjects) and any(s.startswith("rollback banner_rb: ") for s in subjects),
               f"one commit per rollback: {subjects}")
    proc, decisions = sim.advance(["paywall"], at)
    sim.expect(decisions.get("paywall", {}).get("action") == "none", f"a rolled-back plan is over: {decisions}")


def refusals(sim: Sim):
    """Unreadable evidence writes nothing; a summary is one experiment's; a summary decides as the logs do."""
    at = T0 + timedelta(hours=30)
    before = sim.store_bytes()
    proc = sim.run(["advance", "search", "--exposures", "missing.jsonl", "--conversions", "events/conversions.jsonl"], at)
    sim.expect(proc.returncode == 65 and "missing.jsonl" in proc.stderr and proc.stderr.count("\n") == 1, f"a missing log: {proc.returncode} {proc.stderr}")
    bad = os.path.join(sim.repo, "bad.jsonl")
    with open(bad, "w") as handle:
        handle.write('{"timestamp":"yesterday","experiment":"search","variant":"green","subject":"x"}\n')
    proc = sim.run(["advance", "--exposures", bad, "--conversions", "events/conversions.jsonl"], at)
    sim.expect(proc.returncode == 65 and "bad.jsonl:1" in proc.stderr, f"a malformed row: {proc.returncode} {proc.stderr}")
    proc = sim.run(["advance", "search", "banner_hold", "--summary", "totals.csv"], at)
    sim.expect(proc.returncode == 64, f"a summary for two experiments: {proc.returncode} {proc.stderr}")
    sim.expect(sim.store_bytes() == before, "a refused advance wrote the store")
    summary = os.path.join(sim.repo, "banner_hold.csv")
    phase_summary(sim, "banner_hold", T0, at, summary)
    _, from_logs = sim.advance(["banner_hold"], at, "--dry-run")
    _, from_summary = sim.advance(["banner_hold"], at, "--dry-run", "--summary", summary)
    sim.expect(from_logs.get("banner_hold", {}).get("action") == from_summary.get("banner_hold", {}).get("action") == "hold"
               and "sample ratio MISMATCH" in from_summary.get("banner_hold", {}).get("reason", ""),
               f"a summary decides as the logs do: {from_logs} {from_summary}")


if __name__ == "__main__":
    main()
