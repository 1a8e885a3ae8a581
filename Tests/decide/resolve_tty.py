#!/usr/bin/env python3
"""`abconsole resolve` at a terminal (SPEC §12): on a pseudo-terminal it asks for the key; the key
typed exactly resolves, anything else resolves nothing (exit 64); without a terminal it needs --yes.

    python3 Tests/decide/resolve_tty.py --bin .build/debug/abconsole

Prints "resolve tty: N passed, M failed"; exit 1 on any failure.
"""
import json
import os
import pty
import select
import subprocess
import sys
import tempfile

binary = sys.argv[sys.argv.index("--bin") + 1] if "--bin" in sys.argv else ".build/debug/abconsole"
ENV = {**{k: v for k, v in os.environ.items() if not k.startswith("ABCONSOLE_")},
       "ABCONSOLE_NOW": "2026-03-01T10:00:00Z", "ABCONSOLE_OPERATOR": "tty-test"}
passed, failed = 0, []


def run(store, *args, stdin=subprocess.DEVNULL):
    return subprocess.run([binary, "--store", store, *args], capture_output=True, text=True, env=ENV, stdin=stdin)


def at_terminal(store, typed, *args):
    """Runs abconsole with a pty as stdin; types `typed` and a newline once the prompt is on stderr."""
    master, slave = pty.openpty()
    child = subprocess.Popen([binary, "--store", store, *args], stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             env=ENV, text=True)
    os.close(slave)
    prompt = ""
    while "to confirm" not in prompt:
        ready, _, _ = select.select([child.stderr], [], [], 10)
        if not ready:
            break
        chunk = os.read(child.stderr.fileno(), 4096).decode()
        if not chunk:
            break
        prompt += chunk
    os.write(master, (typed + "\n").encode())
    out, err = child.communicate(timeout=20)
    os.close(master)
    return child.returncode, out, prompt + err


def check(name, condition, detail=""):
    global passed
    if condition:
        passed += 1
        print("  ok   " + name)
    else:
        failed.append(name)
        print("  FAIL %s %s" % (name, detail))


def status(store):
    return json.loads(run(store, "show", "exp", "--json").stdout)["status"]


with tempfile.TemporaryDirectory() as directory:
    store = os.path.join(directory, "experiments.json")
    run(store, "create", "exp", "--type", "user", "--variants", "control=50,green=50")
    run(store, "start", "exp")
    no_tty = run(store, "resolve", "exp", "green")
    check("without a terminal: exit 64 asking for --yes", no_tty.returncode == 64 and "add --yes" in no_tty.stderr, no_tty.stderr)
    code, out, err = at_terminal(store, "ex", "resolve", "exp", "green")
    check("the prompt names the key", "Type `exp` to confirm" in err, err)
    check("a wrong key: exit 64, nothing resolved", code == 64 and "nothing was resolved" in err and status(store) == "running", err)
    code, out, err = at_terminal(store, "exp", "resolve", "exp", "green")
    check("the key typed exactly resolves", code == 0 and "everyone now gets `green`" in out and status(store) == "resolved", out + err)

print("resolve tty: %d passed, %d failed" % (passed, len(failed)))
sys.exit(1 if failed else 0)
