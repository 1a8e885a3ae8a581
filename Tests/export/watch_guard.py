#!/usr/bin/env python3
"""`export --watch` never writes the store, and says what went wrong in plain lines.

    python3 Tests/export/watch_guard.py --bin .build/debug/abconsole

Against the real binary and a copy of the sample store in a temp dir:
- `--out` the store itself, or a symlink or hard link to it: refused at start (64), the store's bytes unchanged;
- while watching, the out file swapped for a symlink to the store (then for a link to such a link),
  and the store changed: watching stops with one sentence (73) and the store is the changed, valid store;
- a store made invalid while watching: the export stays, and the message lists its problem on a
  line of its own (a real line break, never a literal `\\n`), saying the store needs fixing, not
  that it "was not changed" (watching only reads it).

The last line is always `export watch guard: N passed, M failed`; exit 0 only when M == 0.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "..", "..", "sample-data", "experiments.json")
sys.path.insert(0, HERE)
from checks import Report, wait_for  # noqa: E402


def ended(process: subprocess.Popen, seconds: float) -> int | None:
    """The exit code of `process` once it ends within `seconds`; else it is killed and the answer is None."""
    try:
        return process.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        return None


def digest(path: str) -> str:
    with open(path, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/debug/abconsole")
    options = parser.parse_args()
    report = Report("export watch guard")
    binary = os.path.abspath(options.bin)
    environment = {k: v for k, v in os.environ.items() if not k.startswith("ABCONSOLE_")}
    environment["ABCONSOLE_OPERATOR"] = "watch-test"
    with tempfile.TemporaryDirectory(prefix="abconsole-watch-") as directory:
        store = os.path.join(directory, "experiments.json")
        shutil.copyfile(SAMPLE, store)

        def cli(*arguments: str) -> subprocess.CompletedProcess:
            return subprocess.run([binary, "--store", store, *arguments], capture_output=True, text=True, env=environment, timeout=60)

        def watch(out: str) -> subprocess.Popen:
            return subprocess.Popen([binary, "--store", store, "export", "--watch", "--format", "client", "--out", out],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment)

        # Refused at start: the store itself, a symlink to it and a hard link to it.
        link = os.path.join(directory, "link.json")
        os.symlink(store, link)
        hard = os.path.join(directory, "hard.json")
        os.link(store, hard)
        before = digest(store)
        for out in (store, link, hard):
            started = watch(out)
            code = ended(started, 20)
            errors = started.communicate()[1]
            report.check(code == 64 and "is the store itself; export to another file" in errors,
                         lambda: f"--watch --out {out}: exit {code}, {errors!r}")
            report.check(digest(store) == before, f"--watch --out {out} changed the store")
        os.remove(link)
        os.remove(hard)

        # Swapped while watching: a symlink to the store, then a change to the store. (A hard link
        # made while watching names the store's old inode once a change has renamed a new file in.)
        for kind, make in (("symlink", os.symlink), ("symlink to a symlink", lambda target, path: (os.symlink(target, link), os.symlink(link, path)))):
            out = os.path.join(directory, "client.json")
            if os.path.lexists(out):
                os.remove(out)
            watcher = watch(out)
            try:
                report.check(wait_for(lambda: os.path.exists(out)), f"{kind}: export --watch wrote nothing")
                os.remove(out)
                make(store, out)
                change = cli("pause", "purchase_button_color")
                report.check(change.returncode == 0, lambda: f"pause: {change.stderr}")
                changed = digest(store)
                code = ended(watcher, 20)
            finally:
                if watcher.poll() is None:
                    watcher.kill()
                errors = watcher.communicate()[1]
            report.check(code == 73, lambda: f"{kind}: export --watch went on or ended with {code}: {errors!r}")
            report.check(f"--out {out} has become the store itself (or a link to it); stopped watching without writing" in errors,
                         lambda: f"{kind}: said {errors!r}")
            report.check(digest(store) == changed, f"{kind}: export --watch wrote the store")
            valid = cli("validate")
            report.check(valid.returncode == 0, lambda: f"{kind}: the store is no longer valid: {valid.stderr}")
            resume = cli("start", "purchase_button_color")
            report.check(resume.returncode == 0, lambda: f"resume: {resume.stderr}")
            os.remove(out)
            if os.path.lexists(link):
                os.remove(link)

        # An invalid store while watching: the problem on its own line, no literal `\n`.
        out = os.path.join(directory, "client.json")
        watcher = watch(out)
        try:
            report.check(wait_for(lambda: os.path.exists(out)), "export --watch wrote nothing")
            good = open(out, "rb").read()
            with open(store, "rb") as handle:
                saved = handle.read()
            spoiled = saved.replace(b'"control": "blue"', b'"control": "nope"', 1)
            report.check(spoiled != saved, "the sample store has no control `blue`")
            with open(store + ".tmp", "wb") as handle:
                handle.write(spoiled)
            os.replace(store + ".tmp", store)
            time.sleep(1)
            report.check(open(out, "rb").read() == good and watcher.poll() is None, "an invalid store changed the export or ended --watch")
        finally:
            watcher.send_signal(signal.SIGTERM)
            code = ended(watcher, 10)
            errors = watcher.communicate()[1]
        report.check(code == 0, lambda: f"export --watch after SIGTERM: exit {code}")
        report.check("\\n" not in errors, lambda: f"a literal \\n in {errors!r}")
        report.check(f"abconsole: {out} keeps the last good export: the store {store} is not valid (1 problem); "
                     "fix it by hand or restore it from version control:\n  $.experiments[" in errors,
                     lambda: f"export --watch on an invalid store said {errors!r}")
        report.check("was not changed" not in errors, lambda: f"export --watch said {errors!r}")
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
