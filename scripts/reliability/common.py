"""Shared helpers of the reliability harnesses: find and run the real abconsole binary."""
import os
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

#: What a crashed Swift process leaves on stderr; none of it may ever appear.
RUNTIME_MARKERS = ("Fatal error", "Swift runtime", "Stack dump", "Segmentation fault", "Illegal instruction",
                   "Current stack trace", "💣")

#: The fixed clock every harness runs at, so the bytes of a store are deterministic.
NOW = "2026-03-01T10:00:00Z"


def default_binary():
    """The debug build (what `scripts/test` builds), else the release build."""
    for candidate in (".build/debug/abconsole", ".build/release/abconsole"):
        path = os.path.join(ROOT, candidate)
        if os.access(path, os.X_OK):
            return path
    return os.path.join(ROOT, ".build/debug/abconsole")


def environment(operator="reliability", **extra):
    """The inherited environment without ABCONSOLE_* settings, plus a fixed operator and clock."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ABCONSOLE_")}
    env["ABCONSOLE_OPERATOR"] = operator
    env["ABCONSOLE_NOW"] = NOW
    env.update({k: str(v) for k, v in extra.items()})
    return env


class Result:
    def __init__(self, args, code, stdout, stderr):
        self.args, self.code, self.stdout, self.stderr = args, code, stdout, stderr

    @property
    def text(self):
        return self.stdout.decode("utf-8", "replace")

    @property
    def error(self):
        return self.stderr.decode("utf-8", "replace")

    def runtime_failure(self):
        """A description of a crash (signal exit or Swift runtime text), or None."""
        if self.code < 0:
            return f"killed by signal {-self.code}"
        for marker in RUNTIME_MARKERS:
            if marker in self.error:
                return f"stderr contains {marker!r}"
        return None

    def __repr__(self):
        return f"exit {self.code} for {self.args!r}: {self.error.strip()[:300]!r}"


def run(binary, store, args, env=None, stdin=None, timeout=300, cwd=None):
    """Runs `abconsole --store STORE ARGS` and returns its Result."""
    argv = [binary] + (["--store", store] if store else []) + list(args)
    completed = subprocess.run(argv, input=stdin, capture_output=True, env=env or environment(), timeout=timeout, cwd=cwd,
                               stdin=None if stdin is not None else subprocess.DEVNULL)
    return Result(args, completed.returncode, completed.stdout, completed.stderr)


def check_ok(result):
    if result.code != 0 or result.runtime_failure():
        sys.exit(f"setup step failed: {result!r}")
    return result


def read_bytes(path):
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except FileNotFoundError:
        return None


def replace_file(path, data):
    """Writes `data` to `path` atomically (the harness's own restore, not abconsole's)."""
    temp = path + ".harness-restore"
    with open(temp, "wb") as handle:
        handle.write(data)
    os.replace(temp, path)
