#!/usr/bin/env python3
"""`refresh(from:)` on the real `client-example` process: its deadline and its cap, with what they cost.

    python3 Tests/delivery/refresh_bounds.py --bin .build/debug/client-example

Tests/delivery/snapshot_server.py serves a sample snapshot on 127.0.0.1; `client-example
--snapshot-url` fetches it once through the library's `refresh(from:timeout:maxBytes:)`:
- a body sent at one byte a second, `--timeout 2`: the fetch fails "no answer in time" and the
  process ends within the deadline plus generous slack (not at the end of the body, minutes later);
- a gzip bomb (256 MiB of spaces, ~260 KiB on the wire) with `--max-bytes 1048576`: the fetch
  fails "larger than the 1 MiB limit" and the app serves its defaults;
- the same snapshot served gzip-compressed: read, every key answered from it.

It prints and bounds what they cost (`wait4`): the process's CPU time over the slow wait (the
library's own transport blocks in `poll`: under a quarter of the wall time and under 0.5 s) and its
peak resident memory on the bomb (inflated under the cap as it arrives: within 16 MiB of the same
process's peak reading the sample from a file, the 1 MiB cap and buffers with margin) —
docs/delivery.md, "The Linux transport".

The last line is always `refresh bounds: N passed, M failed`; exit 0 only when M == 0.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
SERVER = os.path.join(HERE, "snapshot_server.py")
SAMPLE = os.path.join(HERE, "..", "..", "sample-data", "experiments.json")
sys.path.insert(0, os.path.join(HERE, "..", "export"))
from checks import Report  # noqa: E402


def run(arguments: list[str], limit: float = 120) -> tuple[int, str, str, float, float, int]:
    """Runs a process to its end: exit code, stdout, stderr, wall seconds, CPU seconds, peak RSS in KiB."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.monotonic()
        process = subprocess.Popen(arguments, stdout=out, stderr=err)
        deadline = start + limit
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                process.kill()
                pid, status, usage = os.wait4(process.pid, 0)
                break
            time.sleep(0.05)
        wall = time.monotonic() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return (process.returncode, out.read().decode(), err.read().decode(), wall,
                usage.ru_utime + usage.ru_stime, usage.ru_maxrss)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/debug/client-example")
    options = parser.parse_args()
    report = Report("refresh bounds")
    binary = os.path.abspath(options.bin)
    with tempfile.TemporaryDirectory(prefix="abconsole-refresh-") as root:
        shutil.copyfile(SAMPLE, os.path.join(root, "store.json"))
        server = subprocess.Popen([sys.executable, SERVER, root], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        try:
            base = f"http://127.0.0.1:{int(server.stdout.readline())}"

            code, out, err, wall, cpu, _ = run([binary, "--snapshot-url", f"{base}/_slow/store.json", "--timeout", "2", "--user", "u"])
            report.check(code == 0 and "no answer in time" in err, lambda: f"slow body: exit {code}, {err!r}")
            report.check(wall < 2 + 10, lambda: f"slow body: the fetch ended after {wall:.1f} s, its deadline was 2 s")
            print(f"measured: slow body, deadline 2 s: ended after {wall:.2f} s with {cpu:.2f} s of CPU")
            report.check(cpu < 0.5 and cpu < wall / 4, lambda: f"slow body: {cpu:.2f} s of CPU over {wall:.2f} s: the wait spins")

            _, _, _, _, _, baseline = run([binary, "--snapshot", SAMPLE, "--user", "u"])
            code, out, err, wall, cpu, peak = run([binary, "--snapshot-url", f"{base}/_bomb/256/x", "--max-bytes", "1048576", "--user", "u"])
            report.check(code == 0 and "the snapshot is larger than the 1 MiB limit" in err, lambda: f"gzip bomb: exit {code}, {err!r}")
            report.check(out.strip() and all(line.endswith(" default") for line in out.splitlines()), lambda: f"gzip bomb: {out!r}")
            print(f"measured: gzip bomb (256 MiB inflated), cap 1 MiB: peak resident {peak // 1024} MiB"
                  f" (reading the sample from a file: {baseline // 1024} MiB)")
            report.check(peak < baseline + (16 << 10),
                         lambda: f"gzip bomb: peak resident {peak // 1024} MiB under a 1 MiB cap, {baseline // 1024} MiB without fetching")

            code, out, err, wall, cpu, _ = run([binary, "--snapshot-url", f"{base}/_gzip/store.json", "--user", "u"])
            report.check(code == 0 and "refresh" not in err and "default" not in out, lambda: f"gzip snapshot: exit {code}, {out!r}, {err!r}")
        finally:
            server.terminate()
            server.wait(timeout=10)
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
