#!/usr/bin/env python3
"""Crash safety: SIGKILL real abconsole mutations at random instants on a store of 100,000+ entries.

After every kill the store must validate, its bytes must equal exactly the state before or after the
mutation, the lock file left behind must not block the next writer, and leftover temp files must not
break anything. Prints how many kills landed mid-write and ends with `crash: N passed, M failed`.

    scripts/reliability/crash.py [--kills 20] [--entries 100000] [--bin PATH] [--seed S]
"""
import argparse
import fcntl
import glob
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import check_ok, default_binary, environment, read_bytes, replace_file, run  # noqa: E402

EXPERIMENT = "big"
STORE = "experiments.json"


def csv_rows(prefix, count):
    lines = ["subject,variant,note"]
    for i in range(count):
        lines.append(f"{prefix}-{i:06d},{'treat' if i % 2 else 'control'},\"partner {i}, batch {prefix}\"")
    return ("\n".join(lines) + "\n").encode()


def mutations(directory):
    """The three mutation kinds, alternated: a 10k-row import, a ramp, a whitelist add."""
    import_csv = os.path.join(directory, "import-10k.csv")
    with open(import_csv, "wb") as handle:
        handle.write(csv_rows("imported", 10_000))
    return [
        ("import", ["whitelist", "import", EXPERIMENT, import_csv]),
        ("ramp", ["ramp", EXPERIMENT, "control=35.5", "treat=60"]),
        ("add", ["whitelist", "add", EXPERIMENT, "crash-subject", "treat", "--note", "added under SIGKILL"]),
    ]


def temp_files(directory):
    return sorted(glob.glob(os.path.join(directory, f".{STORE}.tmp-*")))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--entries", type=int, default=100_000)
    parser.add_argument("--bin", default=default_binary())
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--keep", action="store_true", help="keep the work directory")
    options = parser.parse_args()
    seed = options.seed if options.seed is not None else random.randrange(1 << 30)
    rng = random.Random(seed)
    binary = os.path.abspath(options.bin)
    work = tempfile.mkdtemp(prefix="abconsole-crash-")
    store = os.path.join(work, STORE)
    # A generous lock timeout: a lock left behind by a killed writer must never make anyone wait.
    env = environment(operator="crash-harness", ABCONSOLE_LOCK_TIMEOUT="5")
    print(f"crash: seed {seed}, {options.entries} whitelist entries, {options.kills} kills, binary {binary}")

    # The big store, built through the CLI: a generated CSV imported with `whitelist import`.
    check_ok(run(binary, store, ["create", EXPERIMENT, "--type", "user", "--variants", "control=50,treat=50"], env=env))
    check_ok(run(binary, store, ["start", EXPERIMENT], env=env))
    base_csv = os.path.join(work, "base.csv")
    with open(base_csv, "wb") as handle:
        handle.write(csv_rows("user", options.entries))
    check_ok(run(binary, store, ["whitelist", "import", EXPERIMENT, base_csv], env=env))
    os.unlink(base_csv)
    before = read_bytes(store)
    print(f"crash: store is {len(before) / 1e6:.1f} MB")

    # "After" once per kind: the same mutation on a copy, not killed; its duration bounds the delay.
    kinds = mutations(work)
    after, duration, window = {}, {}, {}
    for name, args in kinds:
        copy = os.path.join(work, f"after-{name}.json")
        shutil.copyfile(store, copy)
        started = time.monotonic()
        process = subprocess.Popen([binary, "--store", copy] + args, env=env, stdin=subprocess.DEVNULL,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        appeared = gone = None
        prefix = f".{os.path.basename(copy)}.tmp-"
        while process.poll() is None:
            present = any(entry.startswith(prefix) for entry in os.listdir(work))
            if present and appeared is None:
                appeared = time.monotonic()
            elif not present and appeared is not None and gone is None:
                gone = time.monotonic()
            time.sleep(0.0005)
        duration[name] = time.monotonic() - started
        if process.wait() != 0:
            sys.exit(f"crash: the uncut {name} failed: {process.stderr.read().decode(errors='replace')}")
        # How long the temp file exists (create → rename); targeted kills fall inside it.
        window[name] = max(0.002, ((gone or time.monotonic()) - appeared) if appeared else 0.05)
        after[name] = read_bytes(copy)
        if after[name] == before:
            sys.exit(f"crash: the {name} mutation does not change the store")
        os.unlink(copy)
        for leftover in glob.glob(copy + "*"):
            os.unlink(leftover)
        print(f"crash: {name} takes {duration[name]:.2f} s uncut, its temp file lives {window[name] * 1000:.0f} ms")

    passed = failed = writer_checks = aimed_count = mid_write = temp_seen = completed = before_write = finished = 0
    stale_temps = []
    for index in range(options.kills):
        name, args = kinds[index % len(kinds)]
        replace_file(store, before)
        # Temps from two kills ago are removed; the last kill's stay, so this writer runs beside them.
        for path in stale_temps:
            if os.path.exists(path):
                os.unlink(path)
        stale_temps = temp_files(work)
        # Even kills: a random instant within the whole measured duration. Odd kills: aimed at the
        # write — a random instant within the temp file's measured lifetime after it appears.
        aimed = index % 2 == 1
        aimed_count += aimed
        process = subprocess.Popen([binary, "--store", store] + args, env=env, stdin=subprocess.DEVNULL,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        started = time.monotonic()
        if aimed:
            prefix = f".{STORE}.tmp-"
            while process.poll() is None and not any(
                    entry.startswith(prefix) and os.path.join(work, entry) not in stale_temps for entry in os.listdir(work)):
                time.sleep(0.0002)
            time.sleep(rng.uniform(0, window[name] * 1.2))
        else:
            time.sleep(rng.uniform(0, duration[name]))
        delay = time.monotonic() - started
        exited_first = process.poll() is not None
        if not exited_first:
            process.send_signal(signal.SIGKILL)
        stderr = process.communicate()[1].decode("utf-8", "replace")
        problems = []
        if exited_first:
            finished += 1
            if process.returncode != 0:
                problems.append(f"the uncut {name} exited {process.returncode}: {stderr.strip()[:200]}")
        temps = [t for t in temp_files(work) if t not in stale_temps]
        now = read_bytes(store)
        landed = "finished before the kill" if exited_first else None
        if now == before:
            if temps:
                landed = landed or "mid-write (temp file left, store untouched)"
            else:
                landed = landed or "before the write"
        elif now == after[name]:
            landed = landed or "after the rename"
        else:
            problems.append(f"the store is neither the before nor the after state ({len(now or b'')} bytes)")
        if not exited_first:
            if temps or now != before:
                mid_write += 1
            if temps:
                temp_seen += 1
            if now == after[name]:
                completed += 1
            elif not temps:
                before_write += 1
        validation = run(binary, store, ["validate"], env=env)
        if validation.code != 0 or validation.runtime_failure():
            problems.append(f"validate: {validation!r}")
        # The lock died with the killed process: it is free at once, though its file stays.
        with open(store + ".lock", "a") as probe:
            try:
                fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
                fcntl.flock(probe, fcntl.LOCK_UN)
            except BlockingIOError:
                problems.append("the lock is still held after the kill")
        # And the real next writer gets it within 1 s (a refusal, 65, proves it locked and read the
        # store): after every kill that reached the write, and every fifth kill otherwise. (Each next
        # round's mutation is a writer too, with a 5 s lock timeout.)
        writer_note = ""
        if not exited_first and (temps or now != before or index % 5 == 0):
            started = time.monotonic()
            writer = run(binary, store, ["whitelist", "remove", EXPERIMENT, "nobody-here"], env=environment(
                operator="next-writer", ABCONSOLE_LOCK_TIMEOUT="1"))
            if writer.code != 65 or "not on the whitelist" not in writer.error:
                problems.append(f"next writer after the kill: {writer!r}")
            if read_bytes(store) != now:
                problems.append("the refused next writer changed the store")
            writer_checks += 1
            writer_note = f"; next writer locked and refused in {time.monotonic() - started:.2f} s"
        print(f"crash: kill {index + 1:>3}/{options.kills} {name:<6} {'aimed' if aimed else 'random'} at {delay:6.3f} s: {landed}; "
              f"{len(temps)} temp file(s) left; validate {validation.code}; lock free{writer_note}" + (f" — FAILED: {'; '.join(problems)}" if problems else ""))
        if problems:
            failed += 1
        else:
            passed += 1

    # Finally a real write beside whatever the kills left behind (lock file and temp files).
    leftovers = temp_files(work)
    replace_file(store, before)
    final = run(binary, store, ["whitelist", "add", EXPERIMENT, "after-the-crashes", "control"], env=env)
    final_validate = run(binary, store, ["validate"], env=env)
    if final.code != 0 or final_validate.code != 0:
        print(f"crash: FAILED final write beside {len(leftovers)} leftover temp file(s): {final!r} {final_validate!r}")
        failed += 1
    else:
        print(f"crash: a final write succeeded beside the lock file and {len(leftovers)} leftover temp file(s)")
    print(f"crash: {options.kills} kills ({options.kills - aimed_count} at a random instant of the run, {aimed_count} at a "
          f"random instant of the write): {mid_write} landed mid-write ({temp_seen} left a temp file, "
          f"{completed} after the rename), {before_write} before the write, {finished} after the process finished")
    if not options.keep:
        shutil.rmtree(work, ignore_errors=True)
    else:
        print(f"crash: work directory kept at {work}")
    print(f"crash: validate and a lock probe after every kill; the real next writer after {writer_checks} of them")
    print(f"crash: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
