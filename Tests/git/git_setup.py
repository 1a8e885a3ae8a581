#!/usr/bin/env python3
"""`abconsole git-setup` and `--commit-changes` with the real binary and real git repositories.

    python3 Tests/git/git_setup.py --bin .build/debug/abconsole

Checks: setup writes the .gitattributes line and the config, prints what it did, a second run
changes nothing, `--check` exits 0 then (1 before); outside a work tree or without git: 65 and
nothing written. With `--commit-changes` a CLI change commits the store alone (another staged
file stays staged and out of the commit) with the change in words and an `Operator:` trailer;
on a detached HEAD or during a merge the change is saved, not committed, and stderr says why.
`merge` refuses bad input with one sentence and writes nothing. Last line: `git_setup: M failed`.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

GIT_ENV = dict(GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1", GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@x",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@x")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/debug/abconsole")
    binary = os.path.abspath(parser.parse_args().bin)
    failures = []

    def run(args, cwd, env=None):
        return subprocess.run([binary] + args, cwd=cwd, capture_output=True, text=True,
                              env=dict(os.environ, **GIT_ENV, ABCONSOLE_OPERATOR="dana", **(env or {})))

    def git(cwd, *args):
        return subprocess.run(["git"] + list(args), cwd=cwd, capture_output=True, text=True, env=dict(os.environ, **GIT_ENV))

    def expect(condition, message):
        if not condition:
            failures.append(message)

    with tempfile.TemporaryDirectory(prefix="abconsole-gitsetup-") as tmp:
        # Outside a work tree: 65, nothing written.
        outside = os.path.join(tmp, "outside")
        os.makedirs(outside)
        run(["create", "alpha", "--type", "user", "--variants", "a=50,b=50"], outside)
        proc = run(["git-setup"], outside)
        expect(proc.returncode == 65 and "not inside a git work tree" in proc.stderr, f"outside a work tree: {proc.returncode} {proc.stderr}")
        expect(not os.path.exists(os.path.join(outside, ".gitattributes")), "outside a work tree: .gitattributes written")
        # Without git on PATH: 65.
        proc = run(["git-setup"], outside, env={"PATH": "/nonexistent"})
        expect(proc.returncode == 65 and "git is not installed" in proc.stderr, f"without git: {proc.returncode} {proc.stderr}")

        repo = os.path.join(tmp, "repo")
        os.makedirs(os.path.join(repo, "config"))
        git(repo, "init", "-q", "-b", "main")
        store = "config/experiments.json"
        run(["--store", store, "create", "alpha", "--type", "user", "--variants", "control=50,treat=50"], repo)
        proc = run(["--store", store, "git-setup", "--check"], repo)
        expect(proc.returncode == 1 and "not set up" in proc.stdout, f"--check before setup: {proc.returncode} {proc.stdout}")
        expect(not os.path.exists(os.path.join(repo, ".gitattributes")), "--check wrote .gitattributes")
        proc = run(["--store", store, "git-setup", "--commit-changes"], repo)
        expect(proc.returncode == 0 and "/config/experiments.json merge=abconsole diff=abconsole" in proc.stdout,
               f"setup: {proc.returncode} {proc.stdout} {proc.stderr}")
        with open(os.path.join(repo, ".gitattributes")) as handle:
            expect(handle.read() == "/config/experiments.json merge=abconsole diff=abconsole\n", ".gitattributes line")
        expect(git(repo, "config", "--get", "merge.abconsole.driver").stdout.strip().endswith("merge %O %A %B --name %P"), "merge driver config")
        expect(git(repo, "config", "--get", "diff.abconsole.textconv").stdout.strip().endswith("diff --textconv"), "textconv config")
        proc = run(["--store", store, "git-setup", "--commit-changes"], repo)
        expect(proc.returncode == 0 and "nothing changed" in proc.stdout, f"second setup: {proc.stdout}")
        proc = run(["--store", store, "git-setup", "--check"], repo)
        expect(proc.returncode == 0, f"--check after setup: {proc.returncode} {proc.stdout}")

        # --commit-changes: the store alone is committed; another staged file stays staged.
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "base")
        with open(os.path.join(repo, "notes.txt"), "w") as handle:
            handle.write("work in progress\n")
        git(repo, "add", "notes.txt")
        proc = run(["--store", store, "start", "alpha"], repo)
        expect(proc.returncode == 0 and proc.stderr == "", f"start: {proc.returncode} {proc.stderr}")
        message = git(repo, "log", "-1", "--format=%B").stdout
        expect(message.startswith("start alpha: draft → running") and "Operator: dana" in message, f"commit message: {message!r}")
        files = git(repo, "show", "--name-only", "--format=", "HEAD").stdout.split()
        expect(files == [store], f"the commit holds {files}, not the store alone")
        staged = git(repo, "diff", "--cached", "--name-only").stdout.split()
        expect(staged == ["notes.txt"], f"other staged work: {staged}")

        # A command that changes nothing makes no commit and says nothing.
        before = git(repo, "rev-parse", "HEAD").stdout
        proc = run(["--store", store, "start", "alpha"], repo)
        expect(proc.returncode == 0 and proc.stderr == "" and git(repo, "rev-parse", "HEAD").stdout == before,
               f"an unchanged store: {proc.returncode} {proc.stderr!r}")

        # Detached HEAD: saved, not committed, said why.
        git(repo, "checkout", "-q", "--detach")
        head = git(repo, "rev-parse", "HEAD").stdout
        proc = run(["--store", store, "pause", "alpha"], repo)
        expect(proc.returncode == 0 and "saved but not committed" in proc.stderr and "detached" in proc.stderr,
               f"detached HEAD: {proc.returncode} {proc.stderr}")
        expect(git(repo, "rev-parse", "HEAD").stdout == head, "a commit was made on a detached HEAD")
        expect('"status": "paused"' in open(os.path.join(repo, store)).read(), "the change was not saved on a detached HEAD")

        # merge: bad input, one sentence, nothing written.
        base = os.path.join(repo, store)
        out = os.path.join(tmp, "out.json")
        for args, code, words in [
            (["merge", base, base, os.path.join(tmp, "missing.json"), "--out", out], 66, "THEIRS"),
            (["merge", base, base, os.path.join(repo, "notes.txt"), "--out", out], 65, "notes.txt is not a valid store"),
        ]:
            proc = run(args, tmp)
            expect(proc.returncode == code and words in proc.stderr and len(proc.stderr.strip().splitlines()) >= 1,
                   f"{args[-3:]}: {proc.returncode} {proc.stderr}")
            expect(not os.path.exists(out), f"{args}: wrote --out")
        other = os.path.join(tmp, "other.json")
        run(["--store", other, "create", "zeta", "--type", "user", "--variants", "a=50,b=50"], tmp)
        # OURS equal to BASE gives THEIRS unchanged, whatever its history (rule 8); nothing is refused.
        proc = run(["merge", base, base, other, "--out", out], tmp)
        expect(proc.returncode == 0 and open(out).read() == open(other).read(), f"OURS = BASE: {proc.returncode} {proc.stderr}")
        os.remove(out)
        proc = run(["merge", base, base, base, "--out", "/proc/nope/out.json"], tmp)
        expect(proc.returncode in (73, 74) and "nothing was written" in proc.stderr, f"--out unwritable: {proc.returncode} {proc.stderr}")
        version2 = os.path.join(tmp, "v2.json")
        with open(base) as handle:
            text = handle.read().replace('"schema_version": 1', '"schema_version": 2')
        with open(version2, "w") as handle:
            handle.write(text)
        proc = run(["merge", base, version2, base, "--out", out], tmp)
        expect(proc.returncode == 65 and "schema version 2" in proc.stderr, f"schema 2: {proc.returncode} {proc.stderr}")
    for failure in failures:
        print("FAIL", failure)
    print(f"git_setup: {len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
