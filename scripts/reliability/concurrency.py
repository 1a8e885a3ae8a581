#!/usr/bin/env python3
"""Concurrent operators: several real abconsole processes mutate one store at once.

Each operator owns one experiment and its subjects, so what the store must hold afterwards is known
exactly: every acknowledged mutation (exit 0) is present and in the history exactly once, in order,
nothing unacknowledged is present, revisions count the changes, and `validate` passes. Then a lock
held too long by another process (Python's fcntl, and util-linux `flock` when present) must end in
exit 75 with a clear message, quickly, with the store untouched.

    scripts/reliability/concurrency.py [--operators 4] [--mutations 50] [--bin PATH] [--seed S]
"""
import argparse
import fcntl
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import default_binary, environment, read_bytes, run  # noqa: E402

VARIANTS = ("control", "treat", "alt")


def weight_text(buckets):
    """A weight as abconsole prints it: percent without trailing zeros (50, 12.5, 0.25)."""
    whole, fraction = divmod(buckets, 100)
    if fraction == 0:
        return str(whole)
    return f"{whole}.{fraction:02d}".rstrip("0")


class Operator:
    """One operator: its own experiment and subjects, and the exact model of what it changed."""

    def __init__(self, index, binary, store, mutations, seed):
        self.name = f"op{index}"
        self.experiment = f"exp-op{index}"
        self.binary, self.store, self.mutations = binary, store, mutations
        self.rng = random.Random(seed * 1000 + index)
        self.status = "running"
        self.weights = {"control": 4000, "treat": 4000, "alt": 2000}
        self.whitelist = {}
        self.history = []  # (action, before, after) of every acknowledged change, in order
        self.acknowledged = self.refused = self.refused_as_expected = 0
        self.failures = []
        self.env = environment(operator=self.name, ABCONSOLE_LOCK_TIMEOUT="120")

    def summary(self):
        return ",".join(f"{name}={weight_text(self.weights[name])}" for name in VARIANTS)

    def call(self, args, on_success):
        result = run(self.binary, self.store, args, env=self.env)
        crash = result.runtime_failure()
        if crash:
            self.failures.append(f"{self.name}: {crash}: {result!r}")
        if result.code == 0:
            self.acknowledged += 1
            on_success()
        else:
            # Not acknowledged: it must have changed nothing, which the final comparison checks.
            self.refused += 1
            self.failures.append(f"{self.name}: unexpected refusal {result!r}")

    def setup(self):
        self.history.append(("create", None, "draft control=40,treat=40,alt=20"))
        self.history.append(("start", "draft", "running"))

    def refusal(self, args):
        """A mutation that must be refused (65) and leave no trace, which the final comparison checks."""
        result = run(self.binary, self.store, args, env=self.env)
        if result.code == 65 and not result.runtime_failure():
            self.refused_as_expected += 1
        else:
            self.failures.append(f"{self.name}: expected a refusal, got {result!r}")

    def work(self):
        for step in range(self.mutations):
            roll = self.rng.random()
            if roll >= 0.95:
                self.refusal(self.rng.choice([
                    ["whitelist", "remove", self.experiment, f"{self.name}-never-added"],
                    ["ramp", self.experiment, "control=60", "treat=60"],
                    ["whitelist", "add", self.experiment, f"{self.name}-bad", "no-such-variant"],
                ]))
            elif roll < 0.40 or (roll < 0.60 and not self.whitelist):
                subject = (self.rng.choice(sorted(self.whitelist)) if self.whitelist and self.rng.random() < 0.2
                           else f"{self.name}-subject-{step}")
                variant = self.rng.choice(VARIANTS)
                note = f"{self.name} step {step}"

                def added(subject=subject, variant=variant, note=note):
                    old = self.whitelist.get(subject)
                    before = f'{subject}={old[0]} note="{old[1]}"' if old else None
                    self.whitelist[subject] = (variant, note)
                    self.history.append(("whitelist_add", before, f'{subject}={variant} note="{note}"'))
                # --replace: a subject already listed is refused without it.
                self.call(["whitelist", "add", self.experiment, subject, variant, "--note", note, "--replace"], added)
            elif roll < 0.60:
                subject = self.rng.choice(sorted(self.whitelist))

                def removed(subject=subject):
                    variant, note = self.whitelist.pop(subject)
                    self.history.append(("whitelist_remove", f'{subject}={variant} note="{note}"', None))
                self.call(["whitelist", "remove", self.experiment, subject], removed)
            elif roll < 0.82:
                control = self.rng.randrange(0, 10_001)
                treat = self.rng.randrange(0, 10_001 - control)
                alt = self.rng.randrange(0, 10_001 - control - treat)
                new = {"control": control, "treat": treat, "alt": alt}

                def ramped(new=new):
                    before = self.summary()
                    self.weights = new
                    self.history.append(("ramp", before, self.summary()))
                self.call(["ramp", self.experiment] + [f"{name}={weight_text(new[name])}" for name in VARIANTS], ramped)
            else:
                command = "pause" if self.status == "running" else "start"

                def toggled(command=command):
                    before = self.status
                    self.status = "paused" if command == "pause" else "running"
                    self.history.append((command, before, self.status))
                self.call([command, self.experiment], toggled)

    def check(self, document):
        """Every difference between the model and the final store."""
        problems = []
        experiment = next((e for e in document["experiments"] if e["key"] == self.experiment), None)
        if experiment is None:
            return [f"{self.experiment} is missing"]
        if experiment["status"] != self.status:
            problems.append(f"{self.experiment}: status {experiment['status']}, expected {self.status}")
        weights = {v["name"]: round(v["weight"] * 100) for v in experiment["variants"]}
        if weights != self.weights:
            problems.append(f"{self.experiment}: weights {weights}, expected {self.weights}")
        whitelist = {e["subject"]: (e["variant"], e["note"]) for e in experiment["whitelist"]}
        if whitelist != self.whitelist:
            missing = set(self.whitelist) - set(whitelist)
            extra = set(whitelist) - set(self.whitelist)
            problems.append(f"{self.experiment}: whitelist differs (missing {sorted(missing)[:5]}, extra {sorted(extra)[:5]})")
        if any(e["added_by"] != self.name for e in experiment["whitelist"]):
            problems.append(f"{self.experiment}: a whitelist entry was added by someone else")
        history = [(h["action"], h.get("before"), h.get("after")) for h in document["history"] if h["experiment"] == self.experiment]
        if history != self.history:
            first = next((i for i, (a, b) in enumerate(zip(history, self.history)) if a != b), min(len(history), len(self.history)))
            problems.append(f"{self.experiment}: history has {len(history)} entries, expected {len(self.history)}; "
                            f"first difference at {first}: {history[first:first + 1]} vs {self.history[first:first + 1]}")
        if any(h["operator"] != self.name for h in document["history"] if h["experiment"] == self.experiment):
            problems.append(f"{self.experiment}: a history entry names another operator")
        if experiment["revision"] != len(self.history):
            problems.append(f"{self.experiment}: revision {experiment['revision']}, expected {len(self.history)}")
        return problems


def operators_run(binary, work, count, mutations, seed):
    store = os.path.join(work, "experiments.json")
    operators = [Operator(i, binary, store, mutations, seed) for i in range(count)]
    for operator in operators:
        for args in (["create", operator.experiment, "--type", "user", "--variants", "control=40,treat=40,alt=20"],
                     ["start", operator.experiment]):
            result = run(binary, store, args, env=operator.env)
            if result.code != 0:
                sys.exit(f"concurrency: setup failed: {result!r}")
        operator.setup()
    started = time.monotonic()
    threads = [threading.Thread(target=operator.work) for operator in operators]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started
    document = json.loads(read_bytes(store))
    problems = [failure for operator in operators for failure in operator.failures]
    for operator in operators:
        problems += operator.check(document)
    total = sum(len(operator.history) for operator in operators)
    if len(document["history"]) != total:
        problems.append(f"the history holds {len(document['history'])} entries, expected {total}")
    if document["revision"] != total:
        problems.append(f"the store revision is {document['revision']}, expected {total}")
    validation = run(binary, store, ["validate"])
    if validation.code != 0:
        problems.append(f"validate: {validation!r}")
    acknowledged = sum(operator.acknowledged for operator in operators)
    refused = sum(operator.refused for operator in operators)
    expected = sum(operator.refused_as_expected for operator in operators)
    print(f"concurrency: {count} operators × {mutations} mutations in {elapsed:.1f} s: {acknowledged} acknowledged "
          f"and checked (state, history once and in order, revisions), {expected} refused as expected and left no "
          f"trace, {refused} refused unexpectedly; validate {validation.code}")
    return acknowledged + expected, problems


def lock_timeout(binary, work):
    """A lock held by a stuck process ends in exit 75 with a clear message, without a hang."""
    problems = []
    store = os.path.join(work, "experiments.json")
    before = read_bytes(store)
    holders = []

    def python_holder():
        handle = open(store + ".lock", "a")
        fcntl.flock(handle, fcntl.LOCK_EX)
        return handle, handle.close

    holders.append(("a process holding flock (Python fcntl)", python_holder))
    if shutil.which("flock"):
        def flock_holder():
            # Its own process group: `sleep` inherits the locked descriptor, so the whole group is killed.
            process = subprocess.Popen(["flock", store + ".lock", "sleep", "30"], start_new_session=True,
                                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:  # wait until the child really holds it
                with open(store + ".lock", "a") as probe:
                    try:
                        fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
                        fcntl.flock(probe, fcntl.LOCK_UN)
                    except BlockingIOError:
                        break
                time.sleep(0.01)
            return process, lambda: (os.killpg(process.pid, signal.SIGKILL), process.wait())
        holders.append(("util-linux `flock FILE sleep 30`", flock_holder))
    for label, hold in holders:
        _, release = hold()
        try:
            started = time.monotonic()
            result = run(binary, store, ["whitelist", "add", "exp-op0", "blocked-subject", "control"],
                         env=environment(ABCONSOLE_LOCK_TIMEOUT="0.5"), timeout=20)
            elapsed = time.monotonic() - started
        finally:
            release()
        first = result.error.splitlines()[0] if result.error else ""
        ok = (result.code == 75 and "lock" in first and elapsed < 10 and read_bytes(store) == before
              and len(result.error.splitlines()) == 1 and not result.runtime_failure())
        print(f"concurrency: lock held by {label}: exit {result.code} after {elapsed:.2f} s: {first}")
        if not ok:
            problems.append(f"lock timeout with {label}: {result!r} after {elapsed:.2f} s")
    # Released: the same writer now succeeds.
    result = run(binary, store, ["whitelist", "add", "exp-op0", "unblocked-subject", "control"],
                 env=environment(ABCONSOLE_LOCK_TIMEOUT="0.5"))
    if result.code != 0:
        problems.append(f"after the lock was released: {result!r}")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--operators", type=int, default=4)
    parser.add_argument("--mutations", type=int, default=50)
    parser.add_argument("--bin", default=default_binary())
    parser.add_argument("--seed", type=int, default=None)
    options = parser.parse_args()
    seed = options.seed if options.seed is not None else random.randrange(1 << 30)
    binary = os.path.abspath(options.bin)
    print(f"concurrency: seed {seed}, binary {binary}")
    work = tempfile.mkdtemp(prefix="abconsole-concurrency-")
    try:
        acknowledged, problems = operators_run(binary, work, options.operators, options.mutations, seed)
        problems += lock_timeout(binary, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for problem in problems:
        print(f"concurrency: FAILED: {problem}")
    print(f"concurrency: {acknowledged} mutations checked, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
