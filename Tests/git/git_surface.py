#!/usr/bin/env python3
"""The git surface under stress, with the real binary and real git repositories in temp dirs.

    python3 Tests/git/git_surface.py --bin .build/debug/abconsole [--only NAME]

- lock_file_ignored: `git-setup` adds the store's lock file to .gitignore (says so, once); `--check`
  reports it missing; after a change `git status` is clean.
- special_path: a store path with a space and `[ ]` gets a quoted .gitattributes line git reads
  (`git check-attr`); `--check` asks git, so a later rule unsetting `merge` is reported.
- mid_operation: during a conflicted merge, cherry-pick, revert, rebase and `git stash pop`, a change
  with --commit-changes is saved, nothing is staged or committed, and stderr says which operation.
- noisy_hook: a pre-commit hook printing 200 KiB to stdout and stderr; the change returns and commits.
- concurrent: two processes × 15 changes with --commit-changes: 30 commits, each holding its own
  change only and naming its own operator.
- message_escaped: a description with newlines, a trailer-like line and an escape sequence gives a
  one-line subject, escaped, and `Operator:` as the only trailer.
Last line: `git_surface: M failed`.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading

from git_setup import GIT_ENV

STORE = "experiments.json"


def read(path):
    """The file's text; empty when it does not exist."""
    try:
        with open(path) as handle:
            return handle.read()
    except FileNotFoundError:
        return ""


class Repo:
    """A git repository in a temp dir holding a store, driven through the real binary."""

    def __init__(self, binary, root, name, store=STORE):
        self.binary, self.store = binary, store
        self.path = os.path.join(root, name)
        os.makedirs(os.path.dirname(os.path.join(self.path, store)), exist_ok=True)
        self.git("init", "-q", "-b", "main")

    def cli(self, *args, operator="dana", timeout=120):
        return subprocess.run([self.binary, "--store", self.store] + list(args), cwd=self.path, capture_output=True, text=True,
                              timeout=timeout, env=dict(os.environ, **GIT_ENV, ABCONSOLE_OPERATOR=operator))

    def git(self, *args):
        return subprocess.run(["git"] + list(args), cwd=self.path, capture_output=True, text=True, env=dict(os.environ, **GIT_ENV))

    def head(self):
        return self.git("rev-parse", "HEAD").stdout.strip()

    def text(self):
        return read(os.path.join(self.path, self.store))

    def with_experiments(self, *keys, commit_changes=True):
        """Creates `keys`, runs git-setup and commits it all as the base."""
        for key in keys:
            self.cli("create", key, "--type", "user", "--variants", "control=50,treat=50")
        self.cli(*(["git-setup", "--commit-changes"] if commit_changes else ["git-setup"]))
        self.git("add", "-A")
        self.git("commit", "-q", "-m", "base")
        return self


def lock_file_ignored(binary, root, expect):
    repo = Repo(binary, root, "ignored", store="config/experiments.json")
    repo.cli("create", "alpha", "--type", "user", "--variants", "control=50,treat=50")
    proc = repo.cli("git-setup", "--check")
    expect(proc.returncode == 1 and ".gitignore line `/config/experiments.json.lock`" in proc.stdout, f"--check before: {proc.stdout}")
    proc = repo.cli("git-setup")
    expect(proc.returncode == 0 and "added `/config/experiments.json.lock` to" in proc.stdout, f"setup: {proc.returncode} {proc.stdout}")
    expect(read(os.path.join(repo.path, ".gitignore")) == "/config/experiments.json.lock\n", ".gitignore holds the lock file's line once")
    proc = repo.cli("git-setup")
    expect("nothing changed" in proc.stdout and ".gitignore" not in proc.stdout, f"second setup: {proc.stdout}")
    repo.git("add", "-A")
    repo.git("commit", "-q", "-m", "base")
    repo.cli("start", "alpha")
    status = repo.git("status", "--porcelain", "--untracked-files=all").stdout
    expect(status == " M config/experiments.json\n", f"git status after a change: {status!r}")
    expect(os.path.exists(os.path.join(repo.path, "config/experiments.json.lock")), "the change left no lock file to ignore")
    # A later rule that un-ignores it: --check asks git, so it is reported.
    with open(os.path.join(repo.path, ".gitignore"), "a") as handle:
        handle.write("!*.lock\n")
    proc = repo.cli("git-setup", "--check")
    expect(proc.returncode == 1 and "lock file" in proc.stdout, f"--check with the lock file un-ignored: {proc.returncode} {proc.stdout}")


def special_path(binary, root, expect):
    store = "team data/ab [x].json"
    repo = Repo(binary, root, "special", store=store)
    repo.cli("create", "alpha", "--type", "user", "--variants", "control=50,treat=50")
    proc = repo.cli("git-setup")
    expect(proc.returncode == 0, f"setup: {proc.returncode} {proc.stdout} {proc.stderr}")
    line = read(os.path.join(repo.path, ".gitattributes"))
    expect(line == '"/team data/ab \\\\[x\\\\].json" merge=abconsole diff=abconsole\n', f".gitattributes: {line!r}")
    attrs = repo.git("check-attr", "merge", "diff", "--", store).stdout
    expect(attrs == f"{store}: merge: abconsole\n{store}: diff: abconsole\n", f"git check-attr: {attrs!r}")
    expect(repo.git("check-ignore", "-q", "--no-index", "--", store + ".lock").returncode == 0, "the lock file is not ignored")
    expect(repo.git("check-ignore", "-q", "--no-index", "--", "team data/ab x.json.lock").returncode == 1, "the pattern is a glob")
    proc = repo.cli("git-setup", "--check")
    expect(proc.returncode == 0, f"--check after setup: {proc.returncode} {proc.stdout}")
    # The driver runs for that path: a real merge of two branches changing different experiments.
    repo.git("add", "-A")
    repo.git("commit", "-q", "-m", "base")
    repo.git("checkout", "-q", "-b", "other")
    repo.cli("set-description", "alpha", "from other")
    repo.git("commit", "-q", "-am", "other")
    repo.git("checkout", "-q", "main")
    repo.cli("create", "beta", "--type", "user", "--variants", "control=50,treat=50")
    repo.git("commit", "-q", "-am", "main")
    proc = repo.git("merge", "-q", "--no-edit", "other")
    expect(proc.returncode == 0 and "from other" in repo.text() and '"beta"' in repo.text(), f"merge through the driver: {proc.stderr}")
    # A later rule that unsets the attribute: --check reports it, setup puts the line last again.
    with open(os.path.join(repo.path, ".gitattributes"), "a") as handle:
        handle.write("*.json -merge\n")
    proc = repo.cli("git-setup", "--check")
    expect(proc.returncode == 1 and "merge: unset" in proc.stdout, f"--check with merge unset later: {proc.returncode} {proc.stdout}")
    proc = repo.cli("git-setup")
    expect(proc.returncode == 0 and repo.cli("git-setup", "--check").returncode == 0, f"setup after the unset rule: {proc.stdout} {proc.stderr}")
    # A rule git reads last of all (.git/info/attributes): setup says it cannot win, exit 65.
    with open(os.path.join(repo.path, ".git", "info", "attributes"), "w") as handle:
        handle.write("* -diff\n")
    proc = repo.cli("git-setup")
    expect(proc.returncode == 65 and "diff: unset" in proc.stderr and ".git/info/attributes" in proc.stderr, f"overridden: {proc.returncode} {proc.stderr}")


def conflicted(binary, root, name, operation):
    """A repository left mid-`operation` with the store conflicted (alpha's description changed on both sides)."""
    repo = Repo(binary, root, name).with_experiments("alpha", "beta")
    base = repo.head()
    if operation == "stash pop":
        repo.git("config", "--unset", "abconsole.commitChanges")
        repo.cli("set-description", "alpha", "stashed")
        repo.git("stash", "-q")
        repo.cli("set-description", "alpha", "committed")
        repo.git("commit", "-q", "-am", "committed")
        repo.git("config", "abconsole.commitChanges", "true")
        return repo, repo.git("stash", "pop")
    repo.git("checkout", "-q", "-b", "other")
    repo.cli("set-description", "alpha", "on other")
    repo.git("checkout", "-q", "main")
    repo.cli("set-description", "alpha", "on main")
    if operation == "merge":
        return repo, repo.git("merge", "--no-edit", "other")
    if operation == "cherry-pick":
        return repo, repo.git("cherry-pick", "other")
    if operation == "rebase":
        repo.git("checkout", "-q", "other")
        return repo, repo.git("rebase", "main")
    if operation == "revert":
        repo.cli("set-description", "alpha", "later on main")
        return repo, repo.git("revert", "--no-edit", repo.git("rev-parse", "HEAD~1").stdout.strip())
    raise ValueError(base)


def mid_operation(binary, root, expect):
    for operation in ["merge", "cherry-pick", "revert", "rebase", "stash pop"]:
        repo, proc = conflicted(binary, root, "mid-" + operation.replace(" ", "-"), operation)
        stages = repo.git("ls-files", "--stage", "--", STORE).stdout
        if proc.returncode == 0 or len(stages.splitlines()) != 3:
            expect(False, f"{operation}: git did not leave the store conflicted: {proc.returncode} {stages!r} {proc.stderr}")
            continue
        head, cached = repo.head(), repo.git("diff", "--cached", "--name-only").stdout
        proc = repo.cli("set-description", "beta", "changed mid-" + operation)
        word = "rebase" if operation == "rebase" else "resolving conflicts" if operation == "stash pop" else operation
        expect(proc.returncode == 0 and "saved but not committed" in proc.stderr and word in proc.stderr
               and "nothing was staged or committed" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1,
               f"{operation}: {proc.returncode} {proc.stderr!r}")
        expect("changed mid-" + operation in repo.text(), f"{operation}: the change was not saved")
        expect(repo.head() == head, f"{operation}: a commit was made")
        expect(repo.git("ls-files", "--stage", "--", STORE).stdout == stages, f"{operation}: the index stages changed (the store was staged)")
        expect(repo.git("diff", "--cached", "--name-only").stdout == cached, f"{operation}: the staged files changed")


def noisy_hook(binary, root, expect):
    repo = Repo(binary, root, "noisy").with_experiments("alpha")
    hook = os.path.join(repo.path, ".git", "hooks", "pre-commit")
    with open(hook, "w") as handle:
        handle.write("#!/bin/sh\nhead -c 204800 /dev/zero | tr '\\0' o\nhead -c 204800 /dev/zero | tr '\\0' e >&2\n"
                     "head -c 204800 /dev/zero | tr '\\0' o >/dev/stdout\nexit 0\n")
    os.chmod(hook, 0o755)
    before = repo.head()
    try:
        proc = repo.cli("start", "alpha", timeout=60)
    except subprocess.TimeoutExpired:
        expect(False, "a pre-commit hook printing 200 KiB deadlocked the change")
        return
    expect(proc.returncode == 0 and proc.stderr == "", f"start with a noisy hook: {proc.returncode} {proc.stderr[:200]!r}")
    expect(repo.head() != before and repo.git("log", "-1", "--format=%s").stdout.startswith("start alpha"), "the change was not committed")


def concurrent(binary, root, expect):
    repo = Repo(binary, root, "concurrent").with_experiments("alpha", "beta")
    base = repo.head()
    failures = []

    def operate(operator, key):
        for i in range(15):
            proc = repo.cli("whitelist", "add", key, f"{operator}-{i}", "treat", operator=operator)
            if proc.returncode != 0 or proc.stderr:
                failures.append(f"{operator} #{i}: {proc.returncode} {proc.stderr}")

    threads = [threading.Thread(target=operate, args=(name, key)) for name, key in [("ann", "alpha"), ("bob", "beta")]]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    expect(not failures, f"changes failed: {failures[:3]}")
    commits = repo.git("rev-list", "--reverse", f"{base}..HEAD").stdout.split()
    expect(len(commits) == 30, f"{len(commits)} commits for 30 changes")
    for commit in commits:
        trailer = repo.git("log", "-1", "--format=%(trailers:key=Operator,valueonly)", commit).stdout.strip()
        old, new = (os.path.join(root, name) for name in ("old.json", "new.json"))
        for name, rev in [(old, commit + "^"), (new, commit)]:
            with open(name, "w") as handle:
                handle.write(repo.git("show", f"{rev}:{STORE}").stdout)
        changes = json.loads(subprocess.run([binary, "diff", old, new, "--json"], capture_output=True, text=True).stdout)["changes"]
        names = [change.get("operator") for change in changes]
        if names != [trailer] or changes[0].get("action") != "whitelist_add":
            expect(False, f"commit {commit[:8]} (Operator: {trailer}) holds {[(c.get('operator'), c.get('after')) for c in changes]}")
            break


def message_escaped(binary, root, expect):
    repo = Repo(binary, root, "escaped").with_experiments("alpha")
    proc = repo.cli("set-description", "alpha", "x\n\nReviewed-by: mallory\n\x1b[31mred")
    expect(proc.returncode == 0 and proc.stderr == "", f"set-description: {proc.returncode} {proc.stderr}")
    message = repo.git("log", "-1", "--format=%B").stdout
    lines = message.rstrip("\n").split("\n")
    expect(len(lines) == 3 and lines[1] == "" and lines[2] == "Operator: dana", f"the message's lines: {lines!r}")
    expect("\x1b" not in message and "\\n\\nReviewed-by: mallory\\n\\e[31mred" in lines[0], f"the subject: {lines[0]!r}")
    trailers = subprocess.run(["git", "interpret-trailers", "--parse"], input=message, capture_output=True, text=True).stdout
    expect(trailers == "Operator: dana\n", f"trailers: {trailers!r}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/debug/abconsole")
    parser.add_argument("--only")
    options = parser.parse_args()
    binary = os.path.abspath(options.bin)
    failures = []
    for test in [lock_file_ignored, special_path, mid_operation, noisy_hook, concurrent, message_escaped]:
        if options.only and options.only != test.__name__:
            continue
        with tempfile.TemporaryDirectory(prefix="abconsole-gitsurface-", ignore_cleanup_errors=True) as root:
            test(binary, root, lambda condition, message, name=test.__name__: condition or failures.append(f"{name}: {message}"))
    for failure in failures:
        print("FAIL", failure)
    print(f"git_surface: {len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
