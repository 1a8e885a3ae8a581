#!/usr/bin/env python3
"""Hostile environments (issue 12): the real binary against broken streams, odd files, other users
and a lock file pulled from under it. Each check is one class of failure; every one prints its name
and passes or lists its problems. Runs as root here, so other users are played with `setpriv`.

    python3 scripts/reliability/hostile.py --bin .build/release/abconsole [--only NAME]
"""
import argparse
import fcntl
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
from common import ROOT, default_binary, environment  # noqa: E402

SAMPLE = os.path.join(ROOT, "sample-data", "experiments.json")
CHECKS = []


def check(function):
    CHECKS.append(function)
    return function


class Run:
    def __init__(self, code, stdout, stderr):
        self.code, self.stdout, self.stderr = code, stdout, stderr

    @property
    def error(self):
        return self.stderr.decode("utf-8", "replace")

    def __repr__(self):
        return f"exit {self.code}: {self.error.strip()[:300]!r}"


def run(args, env=None, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=30,
        cwd=None, user=None, preexec=None, pass_fds=()):
    """Runs the binary (as `user`, a uid, through setpriv when given) and returns a Run."""
    argv = [BIN] + list(args)
    if user is not None:
        argv = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups", "--"] + argv
    completed = subprocess.run(argv, stdin=stdin, stdout=stdout, stderr=stderr, env=env or environment(), timeout=timeout,
                               cwd=cwd, preexec_fn=preexec, pass_fds=pass_fds)
    return Run(completed.returncode, completed.stdout or b"", completed.stderr or b"")


def crashed(result):
    text = result.error
    return result.code < 0 or result.code in (132, 133, 134, 139) or "Fatal error" in text or "Illegal instruction" in text


def store_in(directory, name="experiments.json"):
    path = os.path.join(directory, name)
    shutil.copyfile(SAMPLE, path)
    return path


def listing(directory):
    return sorted(os.listdir(directory))


# ---------------------------------------------------------------- 6, 7, 8: standard streams

@check
def stdout_write_errors(tmp):
    """Every stdout write is checked: /dev/full is 74 with one sentence; a gone reader is the SIGPIPE status."""
    problems = []
    store = store_in(tmp)
    with open("/dev/full", "wb") as full:
        for args in (["list"], ["show", "account_add_funds", "--json"], ["history"]):
            result = run(["--store", store] + args, stdout=full)
            if result.code != 74 or "standard output" not in result.error or crashed(result):
                problems.append(f"{args} >/dev/full: {result!r}")
    ids = b"".join(b"user-%d\n" % i for i in range(100_000))
    with open("/dev/full", "wb") as full:
        process = subprocess.run([BIN, "--store", store, "assign", "account_add_funds", "--subjects", "-", "--json"], input=ids,
                                 stdout=full, stderr=subprocess.PIPE, env=environment(), timeout=60)
        if process.returncode != 74:
            problems.append(f"batch assign >/dev/full: exit {process.returncode}")
    # The reader goes away with SIGPIPE ignored: the write fails with EPIPE.
    process = subprocess.Popen([BIN, "--store", store, "assign", "account_add_funds", "--subjects", "-"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment(),
                               preexec_fn=lambda: signal.signal(signal.SIGPIPE, signal.SIG_IGN))
    process.stdout.close()
    _, error = process.communicate(ids, timeout=60)
    if process.returncode != 141 or error:
        problems.append(f"closed pipe, SIGPIPE ignored: exit {process.returncode}, stderr {error[:200]!r}")
    return problems


@check
def stderr_failures_keep_exit_code(tmp):
    """A refusal that cannot be written to stderr keeps its exit code (never a trap)."""
    problems = []
    store = store_in(tmp)
    cases = [(["--store", store, "show", "nope"], 65), (["--store", os.path.join(tmp, "missing.json"), "list"], 66),
             (["--store", store, "frobnicate"], 64)]
    for args, code in cases:
        with open("/dev/full", "wb") as full:
            result = run(args, stderr=full)
        if result.code != code:
            problems.append(f"{args[2:]} 2>/dev/full: exit {result.code}, expected {code}")
        closed = subprocess.run(["sh", "-c", '"$@" 2>&-; echo $?', "sh", BIN] + args, capture_output=True, env=environment())
        if closed.stdout.strip() != str(code).encode():
            problems.append(f"{args[2:]} 2>&-: exit {closed.stdout.strip()!r}, expected {code}")
    return problems


@check
def stdin_read_errors(tmp):
    """stdin closed, a directory, or a non-blocking pipe with no data yet: 66 with a sentence, or the right answer."""
    problems = []
    store = store_in(tmp)
    for args in (["assign", "account_add_funds", "--subjects", "-"], ["whitelist", "import", "paywall_type", "-"]):
        before = open(store, "rb").read()
        closed = subprocess.run(["sh", "-c", '"$@" <&-; echo "exit $?"', "sh", BIN, "--store", store] + args, capture_output=True,
                                env=environment())
        if not closed.stdout.strip().endswith(b"exit 66") or b"standard input" not in closed.stderr:
            problems.append(f"{args[0]} with stdin closed: {closed.stdout[-40:]!r} {closed.stderr[:200]!r}")
        directory = os.open(tmp, os.O_RDONLY)
        result = run(["--store", store] + args, stdin=directory)
        os.close(directory)
        if result.code != 66 or crashed(result):
            problems.append(f"{args[0]} with stdin a directory: {result!r}")
        if open(store, "rb").read() != before:
            problems.append(f"{args[0]}: the store changed")
    # A non-blocking pipe that is empty when the process starts (EAGAIN), written a moment later.
    for args, payload, expect in ((["assign", "account_add_funds", "--subjects", "-"], b"user-1\n", b"user-1\taccount_view"),
                                  (["whitelist", "import", "paywall_type", "-"], b"qa-99,b\n", b"")):
        read_end, write_end = os.pipe()
        os.set_blocking(read_end, False)
        process = subprocess.Popen([BIN, "--store", store] + args, stdin=read_end, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   env=environment())
        os.close(read_end)
        time.sleep(0.3)
        os.write(write_end, payload)
        os.close(write_end)
        out, error = process.communicate(timeout=30)
        if process.returncode != 0 or expect not in out:
            problems.append(f"{args[0]} from an empty non-blocking pipe: exit {process.returncode} {error[:200]!r}")
    return problems


def main():
    global BIN
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bin", default=default_binary())
    parser.add_argument("--only", action="append", help="run only these checks (by function name)")
    options = parser.parse_args()
    BIN = os.path.abspath(options.bin)
    failed = 0
    started = time.time()
    chosen = [c for c in CHECKS if not options.only or c.__name__ in options.only]
    for function in chosen:
        with tempfile.TemporaryDirectory(prefix="abconsole-hostile-") as tmp:
            os.chmod(tmp, 0o755)
            try:
                problems = function(tmp)
            except Exception as error:  # a harness failure is a failed check, with its reason
                problems = [f"raised {error!r}"]
        status = "ok" if not problems else "FAILED"
        print(f"hostile: {function.__name__}: {status}")
        for problem in problems:
            print(f"    {problem}")
        failed += bool(problems)
    print(f"hostile: {len(chosen) - failed} of {len(chosen)} checks passed in {time.time() - started:.1f} s")
    sys.exit(1 if failed else 0)


BIN = None
if __name__ == "__main__":
    main()
