#!/usr/bin/env python3
"""Hostile environments: the real binary against broken streams, odd files, other users
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


# ---------------------------------------------------------------- 9: what the store path names

@check
def non_regular_stores_refused_creating_nothing(tmp):
    """A FIFO, a device, a directory, an empty path, a symlink loop: refused at once (66, or 64 for an
    empty --store), never blocking, and nothing created beside them (no `.lock`)."""
    problems = []
    fifo = os.path.join(tmp, "fifo.json")
    os.mkfifo(fifo)
    os.mkdir(os.path.join(tmp, "dir.json"))
    os.symlink("loop2", os.path.join(tmp, "loop1"))
    os.symlink("loop1", os.path.join(tmp, "loop2"))
    existed = os.path.exists("/dev/null.lock")
    cases = [("fifo.json", 66), ("dir.json", 66), ("/dev/null", 66), ("loop1", 66), ("", 64)]
    for store, code in cases:
        for args in (["list"], ["pause", "account_add_funds"], ["create", "x", "--type", "user", "--variants", "a=50,b=50"]):
            before = listing(tmp)
            try:
                result = run(["--store", store] + args, cwd=tmp, timeout=5, env=environment(ABCONSOLE_LOCK_TIMEOUT="1"))
            except subprocess.TimeoutExpired:
                problems.append(f"--store {store!r} {args[0]}: still running after 5 s")
                continue
            if result.code != code or crashed(result):
                problems.append(f"--store {store!r} {args[0]}: {result!r}, expected {code}")
            if listing(tmp) != before:
                problems.append(f"--store {store!r} {args[0]}: created {sorted(set(listing(tmp)) - set(before))}")
    if not existed and os.path.exists("/dev/null.lock"):
        os.unlink("/dev/null.lock")
        problems.append("--store /dev/null left /dev/null.lock")
    return problems


# ---------------------------------------------------------------- 4, 3: other users

def as_user(uid, groups=()):
    """setpriv arguments acting as `uid` (its own gid) with supplementary `groups`."""
    extra = [f"--groups={','.join(map(str, groups))}"] if groups else ["--clear-groups"]
    return ["setpriv", f"--reuid={uid}", f"--regid={uid}"] + extra + ["--"]


def run_as(uid, args, groups=(), cwd=None):
    completed = subprocess.run(as_user(uid, groups) + [BIN] + args, capture_output=True, env=environment(), cwd=cwd, timeout=30)
    return Run(completed.returncode, completed.stdout, completed.stderr)


@check
def read_only_store_of_another_user_refused(tmp):
    """A 0444 store owned by someone else in a world-writable directory: a third user is refused (74),
    the store keeps its bytes and owner, and nothing is created."""
    problems = []
    shared = os.path.join(tmp, "shared")
    os.mkdir(shared)
    os.chmod(shared, 0o777)
    store = store_in(shared)
    os.chown(store, 6001, 6001)
    os.chmod(store, 0o444)
    before = open(store, "rb").read()
    result = run_as(6002, ["--store", store, "whitelist", "add", "account_add_funds", "intruder", "control"])
    info = os.stat(store)
    if result.code != 74 or "permission" not in result.error:
        problems.append(f"whitelist add by a third user: {result!r}")
    if open(store, "rb").read() != before or info.st_uid != 6001:
        problems.append(f"the store was replaced (owner now {info.st_uid})")
    if listing(shared) != ["experiments.json"]:
        problems.append(f"left {listing(shared)}")
    # Its owner may not write it either while it is 0444 (root may: root may write any file).
    result = run_as(6001, ["--store", store, "pause", "account_add_funds"])
    if result.code != 74:
        problems.append(f"its owner changing a 0444 store: {result!r}")
    return problems


@check
def team_shares_a_group_writable_store(tmp):
    """A setgid, group-writable directory and store: every group member can change it, whoever
    created the lock file; the store keeps its group and mode (its owner becomes the writer: only
    root may give a file away)."""
    problems = []
    team = 4242
    shared = os.path.join(tmp, "team")
    os.mkdir(shared)
    os.chown(shared, 0, team)
    os.chmod(shared, 0o2775)
    store = store_in(shared)
    os.chown(store, 5001, team)
    os.chmod(store, 0o664)
    for uid, subject in ((5002, "first"), (5003, "second"), (5001, "third")):
        result = run_as(uid, ["--store", store, "whitelist", "add", "account_add_funds", subject, "control"], groups=(team,))
        if result.code != 0:
            problems.append(f"user {uid}: {result!r}")
    info = os.stat(store)
    if info.st_gid != team or stat.S_IMODE(info.st_mode) != 0o664:
        problems.append(f"store group {info.st_gid}, mode {oct(stat.S_IMODE(info.st_mode))}")
    lock = os.stat(store + ".lock")
    if lock.st_gid != team or stat.S_IMODE(lock.st_mode) != 0o664:
        problems.append(f"lock file group {lock.st_gid}, mode {oct(stat.S_IMODE(lock.st_mode))} (the store's are {team}, 0o664)")
    # A lock file an older build left 0644 as another user still locks for the rest of the team.
    os.chown(store + ".lock", 5002, 5002)
    os.chmod(store + ".lock", 0o644)
    result = run_as(5003, ["--store", store, "whitelist", "add", "account_add_funds", "fourth", "control"], groups=(team,))
    if result.code != 0:
        problems.append(f"with a 0644 lock file of another user: {result!r}")
    return problems


# ---------------------------------------------------------------- 2: locks and leftovers

def big_store(tmp, entries=60_000):
    """A store whose changes take long enough to be stopped in the middle."""
    store = store_in(tmp)
    csv = os.path.join(tmp, "big.csv")
    with open(csv, "w") as handle:
        handle.writelines(f"big-{i},control,row {i}\n" for i in range(entries))
    result = run(["--store", store, "whitelist", "import", "account_add_funds", csv], timeout=300)
    if result.code != 0:
        raise RuntimeError(f"setup import: {result!r}")
    os.unlink(csv)
    return store


def locked_by_someone(path):
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False
    except BlockingIOError:
        return True
    finally:
        os.close(fd)


@check
def deleted_lock_file_loses_nothing(tmp, rounds=3):
    """Writer A holds the lock (stopped mid-change); the lock file is deleted; writer B starts. Both
    changes must be in the store at the end, whatever order they finish in."""
    problems = []
    store = big_store(tmp)
    env = environment(ABCONSOLE_LOCK_TIMEOUT="30")
    for round_number in range(rounds):
        a_subject, b_subject = f"writer-a-{round_number}", f"writer-b-{round_number}"
        a = subprocess.Popen([BIN, "--store", store, "whitelist", "add", "cash_projection_banner", a_subject, "banner"], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.time() + 30
        while a.poll() is None and not locked_by_someone(store + ".lock") and time.time() < deadline:
            pass
        if a.poll() is not None:
            problems.append(f"round {round_number}: writer A finished before it could be stopped")
            continue
        a.send_signal(signal.SIGSTOP)
        os.unlink(store + ".lock")
        b = subprocess.Popen([BIN, "--store", store, "whitelist", "add", "cash_projection_banner", b_subject, "banner"], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            b.wait(timeout=1.5)
        except subprocess.TimeoutExpired:
            pass
        a.send_signal(signal.SIGCONT)
        a_error, b_error = a.communicate(timeout=60)[1], b.communicate(timeout=60)[1]
        if a.returncode != 0 or b.returncode != 0:
            problems.append(f"round {round_number}: A exit {a.returncode} {a_error[:200]!r}, B exit {b.returncode} {b_error[:200]!r}")
        whitelist = json.load(open(store))["experiments"]
        subjects = {entry["subject"] for e in whitelist if e["key"] == "cash_projection_banner" for entry in e["whitelist"]}
        lost = [s for s in (a_subject, b_subject) if s not in subjects]
        if lost:
            problems.append(f"round {round_number}: acknowledged change(s) lost: {lost}")
    return problems


@check
def temp_file_of_a_killed_writer_is_removed(tmp):
    """A writer SIGKILLed mid-save leaves its temp file; the next writer (under the lock) removes it,
    and spares a temp file whose writer is alive."""
    problems = []
    store = big_store(tmp)
    prefix = ".experiments.json.tmp-"
    for attempt in range(20):
        writer = subprocess.Popen([BIN, "--store", store, "whitelist", "add", "account_add_funds", f"killed-{attempt}", "control"],
                                  env=environment(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        while writer.poll() is None and not any(name.startswith(prefix) for name in os.listdir(tmp)):
            pass
        writer.kill()
        writer.wait()
        if any(name.startswith(prefix) for name in os.listdir(tmp)):
            break
    else:
        return ["no kill landed while the temp file existed in 20 attempts"]
    alive = os.path.join(tmp, f"{prefix}{os.getpid()}-1")
    open(alive, "w").close()
    result = run(["--store", store, "whitelist", "add", "account_add_funds", "after-kill", "control"], timeout=120)
    left = [name for name in os.listdir(tmp) if name.startswith(prefix)]
    if result.code != 0:
        problems.append(f"the next writer: {result!r}")
    if left != [os.path.basename(alive)]:
        problems.append(f"temp files after the next write: {left} (only the live writer's may stay)")
    return problems


# ---------------------------------------------------------------- 1, 5: payloads

def nested(levels):
    return "[" * levels + "]" * levels


@check
def deep_payloads_refused_and_named(tmp):
    """A payload deeper than 64 levels is refused when set (65, its depth named); a store holding one
    is named with its JSON path and depth on load, never "not valid JSON"; 64 levels load at once."""
    problems = []
    store = store_in(tmp)
    before = open(store, "rb").read()
    for args in (["set-payload", "paywall_type", "a", nested(510)], ["add-variant", "paywall_type", "d", "--payload", nested(65)]):
        result = run(["--store", store] + args)
        levels = args[-1].count("[")
        if result.code != 65 or f"nests {levels} levels" not in result.error:
            problems.append(f"{args[0]} with {levels} levels: {result!r}")
    if open(store, "rb").read() != before:
        problems.append("a refused payload changed the store")
    result = run(["--store", store, "set-payload", "paywall_type", "a", nested(64)])
    if result.code != 0 or run(["--store", store, "validate"]).code != 0:
        problems.append(f"64 levels: {result!r}")
    for levels in (65, 100, 600, 10_000):
        document = json.load(open(SAMPLE))
        document["experiments"][6]["variants"][1]["payload"] = "PLACEHOLDER"
        text = json.dumps(document).replace('"PLACEHOLDER"', nested(levels))
        deep = os.path.join(tmp, f"deep-{levels}.json")
        open(deep, "w").write(text)
        for args in (["validate"], ["set-payload", "paywall_type", "b", "--clear"]):
            result = run(["--store", deep] + args)
            if result.code != 65 or "$.experiments[6].variants[1].payload" not in result.error \
                    or f"nests {levels} levels" not in result.error or "not valid JSON" in result.error:
                problems.append(f"a stored payload of {levels} levels, {args[0]}: {result!r}")
    return problems


@check
def payload_numbers_keep_their_text(tmp):
    """Payload numbers are stored as given and survive unrelated changes, set or hand-written."""
    problems = []
    store = store_in(tmp)
    payload = '{"account_id":12345678901234567890,"exact":9007199254740993,"small":1.50e-3,"zero":-0.0,"big":1e300}'
    result = run(["--store", store, "set-payload", "paywall_type", "a", payload])
    if result.code != 0:
        return [f"set-payload: {result!r}"]
    expected = '"account_id": 12345678901234567890, "big": 1e300, "exact": 9007199254740993, "small": 1.50e-3, "zero": -0.0'
    text = open(store).read()
    if expected not in text:
        problems.append(f"stored as {text[text.find('account_id') - 2:][:140]!r}")
    text = text.replace('"color": "#34c759"', '"n": 9007199254740993, "m": 12345678901234567890123456789012345678')
    open(store, "w").write(text)
    for args in (["whitelist", "add", "paywall_type", "qa-9", "b"], ["ramp", "paywall_type", "a=30", "b=30", "c=40"]):
        result = run(["--store", store] + args)
        if result.code != 0:
            problems.append(f"{args[0]}: {result!r}")
    text = open(store).read()
    for fragment in (expected, '"m": 12345678901234567890123456789012345678, "n": 9007199254740993'):
        if fragment not in text:
            problems.append(f"after unrelated changes the store lacks {fragment!r}")
    shown = json.loads(run(["--store", store, "show", "paywall_type", "--json"]).stdout)
    numbers = shown["variants"][0]["payload"]
    if numbers["account_id"] != 12345678901234567890 or numbers["exact"] != 9007199254740993:
        problems.append(f"show --json gives {numbers}")
    for bad in ("[1e400]", "[-1e-400]", "[100000000000000000000000000000000000000001]", '{"e\u0301":1,"\u00e9":2}', '{"a":1,"a":2}'):
        result = run(["--store", store, "set-payload", "paywall_type", "a", bad])
        if result.code != 65 or "not valid JSON" in result.error:
            problems.append(f"set-payload {bad}: {result!r}")
    return problems


# ---------------------------------------------------------------- 10 and batch answers

@check
def byte_order_marks_and_batch_lines(tmp):
    """A BOM starting a --subjects file is dropped (user-1 answers as --user user-1 does); one inside
    is refused; every line gets an answer in order (a blank line is a missing subject) and unknown
    keys are reported in the plain output too."""
    problems = []
    store = store_in(tmp)
    single = run(["--store", store, "assign", "account_add_funds", "--user", "user-1"]).stdout.decode().split()
    lines = "\ufeffuser-1\n\nuser-2\r\n\nuser-1\n".encode()
    plain = subprocess.run([BIN, "--store", store, "assign", "account_add_funds", "nope", "--subjects", "-"], input=lines,
                           capture_output=True, env=environment())
    rows = plain.stdout.decode().split("\n")
    if plain.returncode != 0 or rows[1] != f"user-1\t{single[1]}" or rows[2] != "\tcontrol" or rows[4] != "\tcontrol" \
            or len(rows) != 8 or rows[6] != "unknown: nope":
        problems.append(f"plain batch: exit {plain.returncode}, {rows!r}")
    as_json = subprocess.run([BIN, "--store", store, "assign", "account_add_funds", "--subjects", "-", "--json"], input=lines,
                             capture_output=True, env=environment())
    answers = [json.loads(line) for line in as_json.stdout.decode().splitlines()]
    if [a["subject"] for a in answers] != ["user-1", None, "user-2", None, "user-1"]:
        problems.append(f"json batch subjects: {[a.get('subject') for a in answers]}")
    inside = subprocess.run([BIN, "--store", store, "assign", "account_add_funds", "--subjects", "-"],
                            input="user-1\n\ufeffuser-8\n".encode(), capture_output=True, env=environment())
    if inside.returncode != 65 or "\\u{feff}user-8" not in inside.stderr.decode():
        problems.append(f"a BOM inside the file: exit {inside.returncode} {inside.stderr[:200]!r}")
    return problems


# ---------------------------------------------------------------- export --out: the store's replace rule

@check
def export_out_keeps_the_store_and_files_of_others(tmp):
    """`export --out` naming the store (or a link to it) is refused (64) and the store keeps its bytes;
    a 0444 file owned by someone else in a world-writable directory is refused to a third user (74),
    as the store would be, keeping its bytes and owner, and nothing is created beside it."""
    problems = []
    store = store_in(tmp)
    os.symlink(store, os.path.join(tmp, "link.json"))
    before = open(store, "rb").read()
    for out in (store, os.path.join(tmp, "link.json")):
        result = run(["--store", store, "export", "--format", "client", "--out", out])
        if result.code != 64 or "is the store itself" not in result.error:
            problems.append(f"--out {os.path.basename(out)}: {result!r}")
    if open(store, "rb").read() != before or run(["--store", store, "validate"]).code != 0:
        problems.append("the store was replaced by its export")
    shared = os.path.join(tmp, "shared")
    os.mkdir(shared)
    os.chmod(shared, 0o777)
    os.chmod(store, 0o644)
    victim = os.path.join(shared, "client.json")
    with open(victim, "w") as handle:
        handle.write("someone else's file\n")
    os.chown(victim, 6001, 6001)
    os.chmod(victim, 0o444)
    result = run_as(6002, ["--store", store, "export", "--format", "client", "--out", victim])
    if result.code != 74 or "permission denied" not in result.error:
        problems.append(f"--out another user's read-only file: {result!r}")
    if open(victim).read() != "someone else's file\n" or os.stat(victim).st_uid != 6001:
        problems.append("another user's read-only file was replaced")
    if listing(shared) != ["client.json"]:
        problems.append(f"left {listing(shared)}")
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
