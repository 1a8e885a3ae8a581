#!/usr/bin/env python3
"""Cross-check the real abconsole CLI against reference.py (bucketing, assignment, ramping).

Uses ONLY the public CLI of SPEC section 7, against a fresh store in a temporary directory:

    python3 Tests/crosscheck/crosscheck.py --bin .build/release/abconsole
    python3 Tests/crosscheck/crosscheck.py --bin .build/debug/abconsole --subjects 500 --ramps 50 --seed 1

Phases: create experiments (user/device, 2-4 variants, odd salts) -> whitelist, start, pause,
resolve -> refusals (exit 65, store byte-identical) -> assignment of thousands of subjects
(batch `assign --subjects FILE`, `--subjects -`, per-subject `inspect` and `assign`) compared with
reference.decide() fed by `show --json` -> random ramps (with dry runs and refused ramps) checked
with reference.check_ramp() -> assignment again -> `validate`.

The last line is always `crosscheck: N passed, M failed`; the exit status is 0 only if M == 0.
Python 3.11, standard library only.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shlex
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
import unicodedata
import uuid

sys.dont_write_bytecode = True   # no __pycache__ inside the repository
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference as ref  # noqa: E402

EX_OK, EX_USAGE, EX_DATAERR, EX_NOINPUT, EX_TEMPFAIL = 0, 64, 65, 66, 75
UNKNOWN_KEYS = ["no_such_experiment", "zz.unknown-key"]   # valid key syntax, never created
MAX_KEPT_FAILURES = 2000


# ---------------------------------------------------------------------------------------------
# Bookkeeping
# ---------------------------------------------------------------------------------------------

class Report:
    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0
        self.failures: list[tuple[str, str]] = []

    def check(self, cond: bool, title: str, detail=None) -> bool:
        """Count one check. `detail` (str or zero-argument callable) is only built on failure."""
        if cond:
            self.passed += 1
            return True
        self.failed += 1
        if len(self.failures) < MAX_KEPT_FAILURES:
            text = detail() if callable(detail) else (detail or "")
            self.failures.append((title, text))
        return False

    def print_summary(self, limit: int = 20) -> None:
        if self.failures:
            print(f"\nFirst {min(limit, len(self.failures))} of {self.failed} failure(s):")
            for i, (title, detail) in enumerate(self.failures[:limit], 1):
                print(f"\n[{i}] {title}")
                for line in detail.rstrip("\n").splitlines():
                    print(f"    {line}")
        print(f"crosscheck: {self.passed} passed, {self.failed} failed")


class Result:
    def __init__(self, argv, rc, out, err, seconds):
        self.argv, self.rc, self.out, self.err, self.seconds = argv, rc, out, err, seconds

    def describe(self, limit: int = 1500) -> str:
        def cut(s):
            return s if len(s) <= limit else s[:limit] + f"... [{len(s) - limit} more chars]"
        return (f"command: {shlex.join(self.argv)}\n"
                f"exit:    {self.rc if self.rc is not None else 'TIMEOUT'} ({self.seconds:.2f}s)\n"
                f"stdout:  {cut(self.out)!s}\n"
                f"stderr:  {cut(self.err)!s}")


class Fatal(Exception):
    """The CLI is unusable (missing, not executable, hanging): stop early."""


class CLI:
    """Runs `abconsole --store STORE --operator OP ARGS...` with a timeout; never via a shell."""

    def __init__(self, binary: str, store: str, operator: str, timeout: float, verbose: bool):
        self.binary, self.store, self.operator = binary, store, operator
        self.timeout, self.verbose = timeout, verbose
        self.calls = 0
        self.consecutive_timeouts = 0
        self.env = dict(os.environ)
        for var in ("ABCONSOLE_STORE", "ABCONSOLE_OPERATOR"):
            self.env.pop(var, None)
        self.env.update({"LC_ALL": "C.UTF-8", "LANG": "C.UTF-8", "TERM": "dumb"})

    def run(self, *args: str, stdin_text: str | None = None, timeout: float | None = None) -> Result:
        argv = [self.binary, "--store", self.store, "--operator", self.operator, *args]
        self.calls += 1
        t0 = time.monotonic()
        limit = timeout or self.timeout
        try:
            # Own process group, so a timeout kills the CLI and anything it started.
            p = subprocess.Popen(argv, stdin=subprocess.PIPE if stdin_text is not None else subprocess.DEVNULL,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=self.env,
                                 start_new_session=True)
        except OSError as e:
            raise Fatal(f"cannot run {self.binary}: {e}") from None
        try:
            out, err = p.communicate(stdin_text.encode("utf-8") if stdin_text is not None else None,
                                     timeout=limit)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                p.kill()
            out, err = p.communicate()
            self.consecutive_timeouts += 1
            res = Result(argv, None, _decode(out or b""), _decode(err or b"")
                         + f"\n[crosscheck: killed after {limit}s]", time.monotonic() - t0)
            if self.consecutive_timeouts >= 5:
                raise Fatal("5 commands in a row timed out; is the binary waiting for a terminal?\n"
                            + res.describe())
            return res
        self.consecutive_timeouts = 0
        res = Result(argv, p.returncode, _decode(out), _decode(err), time.monotonic() - t0)
        if self.verbose:
            print(f"  $ {shlex.join(argv[5:])} -> {res.rc} ({res.seconds:.2f}s)", file=sys.stderr)
        return res

    def store_bytes(self) -> bytes | None:
        try:
            with open(self.store, "rb") as f:
                return f.read()
        except FileNotFoundError:
            return None


def _decode(b: bytes) -> str:
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError:
        return b.decode("utf-8", errors="backslashreplace") + "\n[crosscheck: output was not valid UTF-8]"


# ---------------------------------------------------------------------------------------------
# Random data
# ---------------------------------------------------------------------------------------------

UNICODE_WORDS = [
    "h\u00e9llo",            # SPEC vector subject (NFC)
    "he\u0301llo",           # the same text in NFD: different bytes, so a different subject
    "\u00f1and\u00fa", "Z\u00fcrich", "stra\u00dfe", "\u0130stanbul", "\u65e5\u672c\u8a9e",
    "\u03a9mega", "\U0001F3B2dice", "thumbs\U0001F44D\U0001F3FD", "\u05d0\u05d1\u05d2",
    "\ufb01le", "caf\u00e9 cr\u00e8me", "\u0645\u0631\u062d\u0628\u0627", "\u00e7a va",
]
PUNCT = "!\"#$%&'()*+,./:;<=>?@[\\]^_`{|}~ =,"


def valid_subject(s: str) -> bool:
    """A subject id this driver is willing to send: 1..256 code points, no control/format/line
    separator characters, no leading/trailing whitespace (see the notes in the report)."""
    if not (1 <= len(s) <= 256) or s != s.strip():
        return False
    return all(unicodedata.category(c) not in ("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn") for c in s)


def sid(s) -> str:
    """A subject id for messages: repr, with non-ASCII escaped so NFC and NFD twins differ."""
    return "None" if s is None else (repr(s) if s.isascii() else f"{s!r} {ascii(s)}")


def argv_safe(s: str) -> bool:
    """Safe as an option value on the command line (a leading '-' reads as an option)."""
    return valid_subject(s) and not s.startswith("-")


def make_subjects(rng: random.Random, n: int) -> list[str]:
    fixed = ["user-1", "user-42", "device-7f3a", "1001", "x", "h\u00e9llo", "he\u0301llo"]
    gens = [
        lambda: f"user-{rng.randint(0, 10**6)}",
        lambda: f"user-{rng.randint(0, 10**6)}",
        lambda: str(uuid.UUID(int=rng.getrandbits(128), version=4)),
        lambda: str(uuid.UUID(int=rng.getrandbits(128), version=4)).upper(),
        lambda: str(rng.randint(0, 10**12)),
        lambda: f"device-{rng.getrandbits(32):08x}",
        lambda: f"{rng.choice(UNICODE_WORDS)}-{rng.randint(0, 9999)}",
        lambda: rng.choice(UNICODE_WORDS) + rng.choice(["", " ", "_", "."]) + rng.choice(UNICODE_WORDS),
        lambda: "u" + "".join(rng.choice(PUNCT + "abc019 ") for _ in range(rng.randint(1, 20))) + "z",
        lambda: "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(rng.randint(200, 256))),
        lambda: rng.choice(["-", "--", "#", "-user-"]) + str(rng.randint(0, 9999)),   # batch only
    ]
    out, seen = [], set()
    for s in fixed:
        seen.add(s)
        out.append(s)
    attempts = 0
    while len(out) < n and attempts < n * 20:
        attempts += 1
        s = rng.choice(gens)()
        if valid_subject(s) and s not in seen:
            seen.add(s)
            out.append(s)
    return out[:n]


def split_buckets(rng: random.Random, total: int, k: int, min_each: int = 1) -> list[int]:
    """k parts (each >= min_each) summing to total."""
    free = total - k * min_each
    cuts = sorted(rng.randint(0, free) for _ in range(k - 1))
    edges = [0] + cuts + [free]
    return [edges[i + 1] - edges[i] + min_each for i in range(k)]


def fmt_pct(rng: random.Random, b: int) -> str:
    """Percent text for b buckets; sometimes with harmless trailing zeros (still <= 2 decimals)."""
    s = ref.buckets_to_pct(b)
    r = rng.random()
    if r < 0.05:
        return f"{b // 100}.{b % 100:02d}"              # "12.50", "7.00"
    if r < 0.08 and b % 100 == 0:
        return f"{b // 100}.0"                          # "12.0"
    return s


VARIANT_NAMES = ["control", "a", "b", "c", "treatment", "v2", "blue.dark", "x-1", "z_9", "0zero"]


def make_plans(rng: random.Random) -> list[dict]:
    long_salt = "".join(rng.choice("abcXYZ019()*%$#@!=,;: ") for _ in range(254))
    long_salt = "L" + long_salt + "L"   # exactly 256 characters, no leading/trailing space
    base = [
        # key, type, salt (None = default = key), fate
        ("account_add_funds", "user", None, "running"),
        ("app_color_scheme", "device", "()**(%$##$%#$#", "running"),
        ("cash_projection_banner", "user", " ", "running"),            # whitespace-only salt
        ("ebook_promotion", "device", "h\u00e9llo w\u00f6rld \u2713 \U0001F3B2", "paused"),
        ("onboarding.v2-draft", "user", "0", "draft"),
        ("paywall_type", "device", "x", "resolved"),
        ("tiny_share", "user", "\u00fc", "running"),
        ("long-salt.exp", "device", long_salt, "running"),
        ("grow_from_zero", "user", "\u65e5\u672c\u8a9e\u306e\u30bd\u30eb\u30c8 \"quoted\" \\", "running"),
    ]
    plans = []
    for key, typ, salt, fate in base:
        k = rng.randint(2, 4)
        names = rng.sample(VARIANT_NAMES, k)
        if key == "tiny_share":
            weights = [rng.randint(1, 3) for _ in range(k)]           # 0.01 .. 0.03 %
        else:
            total = 10000 if rng.random() < 0.4 else rng.randint(k * 50, 10000)
            weights = split_buckets(rng, total, k)
        control = rng.choice(names) if rng.random() < 0.5 else None   # None: use the default
        plans.append({"key": key, "type": typ, "salt": salt, "fate": fate, "names": names,
                      "weights": weights, "control": control})
    return plans


# ---------------------------------------------------------------------------------------------
# The run
# ---------------------------------------------------------------------------------------------

class Crosscheck:
    def __init__(self, args, cli: CLI, report: Report):
        self.args, self.cli, self.r = args, cli, report
        self.rng = random.Random(args.seed)
        self.shows: dict[str, dict] = {}      # current `show --json` per experiment key
        self.whitelisted: dict[str, set] = {}  # subjects this run whitelisted, per key

    # -- helpers -----------------------------------------------------------------------------

    def expect_rc(self, res: Result, want: int, what: str) -> bool:
        return self.r.check(res.rc == want, f"{what}: expected exit {want}, got "
                            f"{res.rc if res.rc is not None else 'TIMEOUT'}", res.describe)

    def parse_json(self, res: Result, what: str):
        try:
            return json.loads(res.out)
        except json.JSONDecodeError as e:
            self.r.check(False, f"{what}: stdout is not JSON ({e})", res.describe)
            return None

    def refused(self, what: str, *args: str) -> None:
        """The command must exit 65, say why on stderr, and leave the store byte-identical."""
        before = self.cli.store_bytes()
        res = self.cli.run(*args)
        self.expect_rc(res, EX_DATAERR, f"refusal: {what}")
        self.r.check(res.err.strip() != "", f"refusal: {what}: no message on stderr", res.describe)
        self.r.check(self.cli.store_bytes() == before, f"refusal: {what}: store file changed",
                     res.describe)

    def show(self, key: str) -> dict | None:
        res = self.cli.run("show", key, "--json")
        if not self.expect_rc(res, EX_OK, f"show {key}"):
            return None
        data = self.parse_json(res, f"show {key}")
        if not isinstance(data, dict):
            self.r.check(False, f"show {key}: expected a JSON object", res.describe)
            return None
        missing = [f for f in ("key", "type", "status", "salt", "control", "winner", "variants",
                               "whitelist") if f not in data]
        self.r.check(not missing, f"show {key}: missing fields {missing}", res.describe)
        if missing:
            return None
        for p in ref.range_problems(data):
            self.r.check(False, f"show {key}: {p}", lambda: json.dumps(data, ensure_ascii=False)[:3000])
        self.shows[key] = data
        return data

    def variant_names(self, key: str) -> list[str]:
        return [v["name"] for v in self.shows[key]["variants"]]

    # -- phase 1: store creation and experiments ---------------------------------------------

    def phase_missing_store(self) -> None:
        res = self.cli.run("list", "--json")
        self.expect_rc(res, EX_NOINPUT, "list on a missing store")
        self.r.check(not os.path.exists(self.cli.store), "list on a missing store created the file",
                     res.describe)

    def phase_create(self) -> list[dict]:
        plans = make_plans(self.rng)
        created = []
        for i, p in enumerate(plans):
            spec = ",".join(f"{n}={fmt_pct(self.rng, w)}" for n, w in zip(p["names"], p["weights"]))
            args = ["create", p["key"], "--type", p["type"], "--variants", spec,
                    "--description", f"crosscheck \u2014 {p['fate']} experiment"]
            if p["control"]:
                args += ["--control", p["control"]]
            if p["salt"] is not None:
                args += ["--salt", p["salt"]]
            res = self.cli.run(*args)
            if not self.expect_rc(res, EX_OK, f"create {p['key']}"):
                continue
            if i == 0 and os.path.exists(self.cli.store):
                mode = stat.S_IMODE(os.stat(self.cli.store).st_mode)
                self.r.check(mode == 0o644, f"new store has mode {mode:o}, SPEC says 644 (umask 022)")
            s = self.show(p["key"])
            if s is None:
                continue
            layout = ref.create_layout(p["weights"])
            got = {v["name"]: (ref.weights(s).get(v["name"]), v.get("ranges")) for v in s["variants"]}
            want = {n: (w, rr) for n, w, rr in zip(p["names"], p["weights"], layout)}
            self.r.check(got == want, f"create {p['key']}: variants laid out contiguously from 0 in order",
                         lambda: f"want {want}\ngot  {got}\n{res.describe()}")
            self.r.check([v["name"] for v in s["variants"]] == p["names"],
                         f"create {p['key']}: variants listed in creation order",
                         lambda: f"want {p['names']}, got {[v['name'] for v in s['variants']]}")
            want_salt = p["salt"] if p["salt"] is not None else p["key"]
            self.r.check(s["salt"] == want_salt, f"create {p['key']}: salt stored verbatim",
                         lambda: f"want {want_salt!r}, got {s['salt']!r}")
            self.r.check(s["type"] == p["type"] and s["status"] == "draft" and s["winner"] is None
                         and s["whitelist"] == [], f"create {p['key']}: type/status/winner/whitelist",
                         lambda: json.dumps(s, ensure_ascii=False)[:2000])
            want_control = p["control"] or p["names"][0]
            self.r.check(s["control"] == want_control,
                         f"create {p['key']}: control is {'--control' if p['control'] else 'the first variant (default)'}",
                         lambda: f"want {want_control!r}, got {s['control']!r}")
            created.append(p)
        # Refused creations (store must stay byte-identical).
        if created:
            self.refused("create with a duplicate key", "create", created[0]["key"], "--type", "user",
                         "--variants", "a=10,b=10")
        self.refused("create with weights over 100 %", "create", "over_hundred", "--type", "user",
                     "--variants", "a=60,b=40.01")
        self.refused("create with a 3-decimal weight", "create", "three_decimals", "--type", "device",
                     "--variants", "a=10.005,b=20")
        return created

    def whitelist_subjects(self, key: str, pool: list[str], n: int, always: tuple = ()) -> None:
        """Whitelist `always` plus n random subjects of pool (never one already whitelisted)."""
        names = self.variant_names(key)
        done = self.whitelisted.setdefault(key, set())
        fresh = [s for s in pool if s not in done and s not in always]
        for subj in [s for s in always if s not in done] + self.rng.sample(fresh, min(n, len(fresh))):
            done.add(subj)
            var = self.rng.choice(names)
            res = self.cli.run("whitelist", "add", key, subj, var, "--note",
                               self.rng.choice(["", "QA device", "b\u00eata tester \u2713"]))
            self.expect_rc(res, EX_OK, f"whitelist add {key} {subj!r} {var}")

    def phase_lifecycle(self, created: list[dict], pool: list[str]) -> None:
        rng = self.rng
        argv_pool = [s for s in pool if argv_safe(s)]
        wl_pool = argv_pool[:7] + rng.sample(argv_pool, min(40, len(argv_pool)))  # vectors + random
        for i, p in enumerate(created):                     # some whitelisting while a draft
            # NFC "héllo" on every other experiment, so that its NFD twin (also a subject) shows
            # whether the CLI compares subject ids byte-exactly.
            self.whitelist_subjects(p["key"], wl_pool, rng.randint(1, 3),
                                    always=("h\u00e9llo",) if i % 2 == 0 else ())
        for p in created:
            if p["fate"] != "draft":
                self.expect_rc(self.cli.run("start", p["key"]), EX_OK, f"start {p['key']}")
        for p in created:                                   # a weight-0 variant, to be ramped up
            if p["key"] == "grow_from_zero":
                payload = {"color": "blue", "n": [1, 2.5], "t\u00e9xt": "\u2713", "nested": {"ok": True}}
                res = self.cli.run("add-variant", p["key"], "newbie", "--payload", json.dumps(payload))
                if self.expect_rc(res, EX_OK, "add-variant grow_from_zero newbie"):
                    s = self.show(p["key"]) or {}
                    nv = [v for v in s.get("variants", []) if v["name"] == "newbie"]
                    self.r.check(len(nv) == 1 and ref.weights(s).get("newbie") == 0
                                 and nv[0].get("ranges") == [],
                                 "add-variant: new variant has weight 0 and no ranges",
                                 lambda: json.dumps(nv, ensure_ascii=False))
                    got = nv[0].get("payload") if nv else None
                    if isinstance(got, str):            # payload kept as raw JSON text
                        try:
                            got = json.loads(got)
                        except json.JSONDecodeError:
                            pass
                    self.r.check(got == payload, "add-variant: payload round-trips",
                                 lambda: f"want {payload!r}\ngot  {nv[0].get('payload') if nv else None!r}")
        for p in created:                                   # more whitelisting after start
            if self.shows.get(p["key"]):
                self.show(p["key"])
                self.whitelist_subjects(p["key"], wl_pool, rng.randint(1, 4))
        for p in created:
            if p["fate"] == "paused":
                self.expect_rc(self.cli.run("pause", p["key"]), EX_OK, f"pause {p['key']}")
                self.whitelist_subjects(p["key"], wl_pool, 1)   # allowed on a paused experiment
        for p in created:
            if p["fate"] == "resolved":
                names = self.variant_names(p["key"])
                control = self.shows[p["key"]]["control"]
                winner = rng.choice([n for n in names if n != control] or names)
                if not self.expect_rc(self.cli.run("resolve", p["key"], winner, "--yes"), EX_OK,
                                      f"resolve {p['key']} {winner}"):
                    continue
                key = p["key"]
                self.refused("ramp a resolved experiment", "ramp", key, f"{winner}=1")
                self.refused("whitelist add on a resolved experiment", "whitelist", "add", key,
                             "someone-new", winner)
                self.refused("add-variant on a resolved experiment", "add-variant", key, "late")
                self.refused("resolve a resolved experiment again", "resolve", key, winner)
                self.refused("start a resolved experiment", "start", key)
                self.refused("pause a resolved experiment", "pause", key)
                self.refused("delete a resolved experiment", "delete", key)
        # Per-experiment state as the reference sees it.
        for p in created:
            s = self.show(p["key"])
            if s:
                want = {"draft": "draft", "running": "running", "paused": "paused",
                        "resolved": "resolved"}[p["fate"]]
                self.r.check(s["status"] == want, f"{p['key']}: status {s['status']!r}, expected {want!r}")
        res = self.cli.run("list", "--json")
        if self.expect_rc(res, EX_OK, "list --json"):
            data = self.parse_json(res, "list --json")
            if isinstance(data, list):
                got = sorted((e.get("key"), e.get("status")) for e in data if isinstance(e, dict))
                want = sorted((k, s["status"]) for k, s in self.shows.items())
                self.r.check(got == want, "list --json: keys and statuses", lambda: f"want {want}\ngot  {got}")
        self.refused("inspect an unknown experiment", "inspect", "--user", "user-1", UNKNOWN_KEYS[0], "--json")

    # -- phase 2: assignment -----------------------------------------------------------------

    def mismatch_detail(self, key: str, user, device, want, got, mode: str) -> str:
        s = self.shows[key]
        subj = ref.subject_of(s, user, device)
        lines = [f"mode: {mode}",
                 f"experiment {key!r}: type={s['type']} status={s['status']} control={s['control']!r} "
                 f"winner={s['winner']!r} salt={s['salt']!r}",
                 f"user={sid(user)} device={sid(device)} -> subject {subj!r}"]
        if subj is not None:
            h = ref.first_hash(s["salt"], subj)
            lines.append(f"utf8(salt+subject)={(s['salt'] + subj).encode('utf-8').hex()}")
            lines.append(f"fnv1a32(salt+subject)={h}  bucket={ref.bucket(s['salt'], subj)}")
            wl = [e for e in s["whitelist"] if e.get("subject") == subj]
            if wl:
                lines.append(f"whitelist entry: {wl[0]}")
            twins = [e for e in s["whitelist"] if e.get("subject") != subj and
                     unicodedata.normalize("NFC", e.get("subject", "")) == unicodedata.normalize("NFC", subj)]
            if twins:
                lines.append(f"NOTE: whitelisted subject {twins[0].get('subject')!r} is canonically "
                             f"equivalent but not byte-identical (Swift String == ignores Unicode "
                             f"normalisation; buckets hash bytes)")
        lines.append("variants: " + "; ".join(f"{v['name']}={v['weight']}% {v['ranges']}" for v in s["variants"]))
        lines.append(f"expected: {want}")
        lines.append(f"got:      {got}")
        return "\n".join(lines)

    def check_assign_object(self, obj, keys: list[str], unknown: list[str], user, device,
                            deciders: dict, mode: str) -> None:
        if not isinstance(obj, dict) or not isinstance(obj.get("variants"), dict):
            self.r.check(False, f"{mode}: answer is not {{'variants': {{...}}, 'unknown': [...]}}",
                         repr(obj)[:2000])
            return
        self.r.check(obj.get("unknown") == unknown, f"{mode}: unknown keys reported",
                     lambda: f"want {unknown!r}, got {obj.get('unknown')!r} (user={sid(user)} device={sid(device)})")
        extra = sorted(set(obj["variants"]) - set(keys))
        self.r.check(not extra, f"{mode}: variants for keys not asked for / unknown: {extra}")
        for key in keys:
            want = deciders[key](user, device)
            got = obj["variants"].get(key, "<missing>")
            self.r.check(got == want[0], f"{mode}: {key} user={sid(user)} device={sid(device)}: "
                         f"expected {want[0]!r} ({want[1]}), got {got!r}",
                         lambda: self.mismatch_detail(key, user, device, want, got, mode))

    def phase_assign(self, subjects: list[str], label: str, n_inspect: int, n_assign: int) -> None:
        keys = sorted(self.shows)
        if not keys:
            return
        deciders = {k: ref.Decider(self.shows[k]) for k in keys}
        before = self.cli.store_bytes()
        rng = self.rng
        # Batch from a file: each line is both the user id and the device id.
        ask = keys + UNKNOWN_KEYS[:1]
        path = os.path.join(self.args.workdir, f"subjects-{label}.txt")
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write("".join(s + "\n" for s in subjects))
        t0 = time.monotonic()
        res = self.cli.run("assign", *ask, "--subjects", path, "--json",
                           timeout=max(self.cli.timeout, 60 + len(subjects) / 50))
        if self.args.verbose:
            print(f"  batch of {len(subjects)} subjects x {len(keys)} experiments: "
                  f"{time.monotonic() - t0:.2f}s", file=sys.stderr)
        self.check_batch(res, subjects, keys, deciders, f"batch assign --subjects FILE ({label})")
        # Batch from stdin.
        few = subjects[: min(200, len(subjects))]
        res = self.cli.run("assign", *ask, "--subjects", "-", "--json", stdin_text="".join(s + "\n" for s in few))
        self.check_batch(res, few, keys, deciders, f"batch assign --subjects - ({label})")
        # Per-subject inspect (every field) and assign.
        safe = [s for s in subjects if argv_safe(s)]
        if not safe:
            return
        fixed_pairs = [("h\u00e9llo", "he\u0301llo"), ("he\u0301llo", "h\u00e9llo"),
                       ("user-1", "device-7f3a"), ("user-42", None), (None, "1001"), (None, None)]
        fixed_pairs = [(u, d) for u, d in fixed_pairs if (u is None or u in safe) and (d is None or d in safe)]
        for i in range(n_inspect):
            user, device = fixed_pairs[i] if i < len(fixed_pairs) else self.pick_pair(rng, safe)
            ask_keys = keys if rng.random() < 0.8 else rng.sample(keys, rng.randint(1, len(keys)))
            args = ["inspect"] + (["--user", user] if user is not None else []) \
                + (["--device", device] if device is not None else []) + ask_keys + ["--json"]
            if i < 3:
                args = [a for a in args if a not in ask_keys]   # no EXP: every experiment
                ask_keys = keys
            res = self.cli.run(*args)
            mode = f"inspect ({label})"
            if not self.expect_rc(res, EX_OK, mode):
                continue
            data = self.parse_json(res, mode)
            if not isinstance(data, list):
                self.r.check(False, f"{mode}: expected a JSON array", res.describe)
                continue
            by_key = {e.get("experiment"): e for e in data if isinstance(e, dict)}
            self.r.check(sorted(by_key) == sorted(ask_keys) and len(data) == len(ask_keys),
                         f"{mode}: one entry per experiment asked for",
                         lambda: f"asked {ask_keys}\n{res.describe()}")
            for key in ask_keys:
                e = by_key.get(key)
                if e is None:
                    continue
                s = self.shows[key]
                v, reason, b = deciders[key](user, device)
                subj = ref.subject_of(s, user, device)
                want = {"experiment": key, "type": s["type"], "subject": subj, "bucket": b,
                        "variant": v, "reason": reason}
                got = {f: e.get(f, "<missing>") for f in want}
                if self.args.lenient_bucket and got["bucket"] is None and reason in (
                        "resolved", "paused", "whitelisted", "draft"):
                    got["bucket"] = b
                self.r.check(got == want, f"{mode}: {key} user={sid(user)} device={sid(device)}: "
                             f"expected {v!r}/{reason}/{b}, got {got['variant']!r}/{got['reason']}/{got['bucket']}",
                             lambda key=key, want=want, got=got: self.mismatch_detail(
                                 key, user, device, want, got, mode) + "\n" + res.describe(400))
        for _ in range(n_assign):
            user, device = self.pick_pair(rng, safe)
            unknown = rng.sample(UNKNOWN_KEYS, rng.randint(0, 2))
            ask_keys = rng.sample(keys, rng.randint(1, len(keys)))
            args = ["assign"] + (["--user", user] if user is not None else []) \
                + (["--device", device] if device is not None else []) + ask_keys + unknown + ["--json"]
            res = self.cli.run(*args)
            mode = f"assign ({label})"
            if not self.expect_rc(res, EX_OK, mode):
                continue
            obj = self.parse_json(res, mode)
            if obj is not None:
                self.check_assign_object(obj, ask_keys, unknown, user, device, deciders, mode)
        self.r.check(self.cli.store_bytes() == before, f"assign/inspect ({label}) changed the store file")

    @staticmethod
    def pick_pair(rng: random.Random, safe: list[str]):
        r = rng.random()
        user = None if r < 0.10 or 0.95 < r else rng.choice(safe)
        device = None if 0.10 <= r < 0.20 or 0.95 < r else rng.choice(safe)
        return user, device

    def check_batch(self, res: Result, subjects: list[str], keys: list[str], deciders: dict,
                    mode: str) -> None:
        if not self.expect_rc(res, EX_OK, mode):
            return
        lines = res.out.split("\n")          # not splitlines(): U+2028 etc. are not line breaks
        if lines and lines[-1] == "":
            lines.pop()
        if not self.r.check(len(lines) == len(subjects),
                            f"{mode}: {len(lines)} output lines for {len(subjects)} subjects",
                            lambda: res.describe(3000)):
            return
        for subj, line in zip(subjects, lines):
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as e:
                self.r.check(False, f"{mode}: line for {sid(subj)} is not JSON ({e})", line[:1000])
                continue
            if not self.r.check(isinstance(obj, dict) and obj.get("subject") == subj,
                                f"{mode}: line has subject {obj.get('subject') if isinstance(obj, dict) else obj!r}, "
                                f"expected {sid(subj)} (same order as the input)", line[:1000]):
                continue
            self.check_assign_object(obj, keys, UNKNOWN_KEYS[:1], subj, subj, deciders, mode)

    # -- phase 3: ramps ----------------------------------------------------------------------

    def gen_ramp(self, show: dict):
        """-> (args like ["a=10", "b=20.5"], expected weights in buckets or None, kind)."""
        rng = self.rng
        cur = ref.weights(show)
        names = [v["name"] for v in show["variants"]]
        listed = rng.sample(names, rng.randint(1, len(names)))
        fixed = sum(w for n, w in cur.items() if n not in listed)
        budget = ref.BUCKETS - fixed
        r = rng.random()
        refuse = rng.random() < self.args.refuse_share
        if refuse:
            kind = rng.choice(["over_100", "three_decimals", "unknown_variant", "single_over_100"])
            if kind == "over_100":
                total = budget + rng.randint(1, 300)
                parts = split_buckets(rng, total, len(listed), 0)
                if any(p > ref.BUCKETS for p in parts):
                    kind = "single_over_100"
                return [f"{n}={ref.buckets_to_pct(w)}" for n, w in zip(listed, parts)], None, kind
            if kind == "three_decimals":
                parts = split_buckets(rng, rng.randint(0, max(0, budget - 1)), len(listed), 0)
                args = [f"{n}={w // 100}.{w % 100:02d}{rng.randint(1, 9)}" if i == 0
                        else f"{n}={ref.buckets_to_pct(w)}" for i, (n, w) in enumerate(zip(listed, parts))]
                return args, None, kind
            if kind == "unknown_variant":
                ghost = rng.choice([n for n in VARIANT_NAMES + ["ghost", "new-one"] if n not in names])
                return [f"{ghost}=0"] + [f"{n}={ref.buckets_to_pct(cur[n])}" for n in listed[:1]], None, kind
            return [f"{listed[0]}={rng.choice(['100.01', '101', '250'])}"], None, "single_over_100"
        if r < 0.30:
            kind, total = "random", rng.randint(0, budget)
        elif r < 0.50:
            kind, total = "fill", budget
        elif r < 0.65:
            kind = "nudge"
            n = listed[0]
            listed = [n]
            budget = ref.BUCKETS - sum(w for m, w in cur.items() if m != n)
            new = max(0, min(budget, cur[n] + rng.choice([-1, 1, -50, 50, -rng.randint(1, 1000), rng.randint(1, 1000)])))
            return [f"{n}={fmt_pct(rng, new)}"], {**cur, n: new}, kind
        elif r < 0.75:
            kind = "zero"
            parts = [0] + split_buckets(rng, rng.randint(0, budget), len(listed) - 1, 0) if len(listed) > 1 else [0]
            new = dict(zip(listed, parts))
            return [f"{n}={fmt_pct(rng, w)}" for n, w in new.items()], {**cur, **new}, kind
        elif r < 0.80:
            kind = "same"
            return [f"{n}={fmt_pct(rng, cur[n])}" for n in listed], dict(cur), kind
        elif r < 0.90 and len(names) >= 2:
            kind = "swap"
            a, b = rng.sample(names, 2)
            new = {a: cur[b], b: cur[a]}
            return [f"{n}={fmt_pct(rng, w)}" for n, w in new.items()], {**cur, **new}, kind
        else:
            kind, total = "all_in_one", budget
            parts = [0] * len(listed)
            parts[rng.randrange(len(listed))] = total
            new = dict(zip(listed, parts))
            return [f"{n}={fmt_pct(rng, w)}" for n, w in new.items()], {**cur, **new}, kind
        parts = split_buckets(rng, total, len(listed), 0)
        new = dict(zip(listed, parts))
        return [f"{n}={fmt_pct(rng, w)}" for n, w in new.items()], {**cur, **new}, kind

    def phase_ramps(self, n: int, subjects: list[str]) -> None:
        rng = self.rng
        rampable = [k for k, s in self.shows.items() if s["status"] != "resolved"]
        resolved = [k for k, s in self.shows.items() if s["status"] == "resolved"]
        if not rampable:
            self.r.check(False, "no experiment to ramp (creation failed?)")
            return
        chmod_at = n // 2
        mode_check_pending = False
        for i in range(n):
            if resolved and rng.random() < 0.03:
                key = rng.choice(resolved)
                v = rng.choice(self.variant_names(key))
                self.refused(f"ramp resolved {key}", "ramp", key, f"{v}=1", "--json")
                continue
            # Bias towards running experiments, but ramp drafts and paused ones too.
            key = rng.choice(rampable + [k for k in rampable if self.shows[k]["status"] == "running"])
            old = self.shows[key]
            args, expected, kind = self.gen_ramp(old)
            what = f"ramp #{i} {key} {' '.join(args)} [{kind}]"
            if expected is None:
                self.refused(what, "ramp", key, *args, "--json")
                if rng.random() < 0.3:
                    self.refused(what + " --dry-run", "ramp", key, *args, "--dry-run", "--json")
                continue
            if i == chmod_at and os.path.exists(self.cli.store):
                os.chmod(self.cli.store, 0o600)
                mode_check_pending = True
            dry = None
            if rng.random() < self.args.dry_run_share:
                before = self.cli.store_bytes()
                res = self.cli.run("ramp", key, *args, "--dry-run", "--json")
                if self.expect_rc(res, EX_OK, what + " --dry-run"):
                    dry = self.parse_json(res, what + " --dry-run")
                self.r.check(self.cli.store_bytes() == before, f"{what} --dry-run changed the store file",
                             res.describe)
            res = self.cli.run("ramp", key, *args, "--json")
            if not self.expect_rc(res, EX_OK, what):
                self.show(key)    # resync whatever happened
                continue
            out = self.parse_json(res, what)
            new = self.show(key)
            if new is None or not isinstance(out, dict):
                continue
            share = out.get("moved_share")
            problems = ref.check_ramp(old, new, share)
            self.r.check(not problems, f"{what}: check_ramp", lambda: "\n".join(problems[:15]) + (
                f"\n... {len(problems) - 15} more" if len(problems) > 15 else "") + "\n" + res.describe(600))
            want_share = ref.tv_buckets(ref.weights(old), expected) / ref.BUCKETS
            got_w = ref.weights(new)
            self.r.check(got_w == expected, f"{what}: show weights after the ramp "
                         "(listed names set, others unchanged)",
                         lambda: f"want {expected}\ngot  {got_w}")
            ow = out.get("weights")
            if self.r.check(isinstance(ow, dict), f"{what}: ramp --json has a weights object", res.describe):
                try:
                    ow_b = {k: ref.weight_to_buckets(v) for k, v in ow.items()}
                except ref.SpecError as e:
                    ow_b = {"<error>": str(e)}
                listed = {a.split("=", 1)[0] for a in args}
                self.r.check(listed <= set(ow_b) and all(expected.get(k) == v for k, v in ow_b.items()),
                             f"{what}: ramp --json weights", lambda: f"want (at least {sorted(listed)}) "
                             f"{expected}\ngot  {ow}")
            if isinstance(share, (int, float)) and not isinstance(share, bool):
                self.r.check(abs(share - want_share) <= 0.5 / ref.BUCKETS and 0 <= share <= 1,
                             f"{what}: moved_share {share} vs total variation {want_share}")
            if dry is not None:
                ds = dry.get("moved_share") if isinstance(dry, dict) else None
                self.r.check(isinstance(ds, (int, float)) and isinstance(share, (int, float))
                             and abs(ds - share) <= 1e-9,
                             f"{what}: --dry-run reported moved_share {ds!r}, the real ramp {share!r}")
                self.r.check(isinstance(dry, dict) and dry.get("weights") == out.get("weights"),
                             f"{what}: --dry-run weights equal the real ramp's",
                             lambda: f"dry {dry.get('weights') if isinstance(dry, dict) else dry!r}\n"
                                     f"real {out.get('weights')!r}")
            if mode_check_pending:
                mode_now = stat.S_IMODE(os.stat(self.cli.store).st_mode)
                self.r.check(mode_now == 0o600, f"store permissions not kept across a save: 600 -> {mode_now:o}")
                mode_check_pending = False
            if self.args.assign_every and (i + 1) % self.args.assign_every == 0:
                self.phase_assign(rng.sample(subjects, min(300, len(subjects))), f"after ramp {i + 1}", 10, 10)

    # -- main --------------------------------------------------------------------------------

    def run(self) -> None:
        subjects = make_subjects(self.rng, self.args.subjects)
        self.phase_missing_store()
        created = self.phase_create()
        if not created:
            self.r.check(False, "no experiment could be created; stopping")
            return
        self.phase_lifecycle(created, subjects)
        n_inspect = min(self.args.inspect, len(subjects))
        self.phase_assign(subjects, "initial", n_inspect, max(1, n_inspect // 3))
        self.phase_ramps(self.args.ramps, subjects)
        for key in list(self.shows):
            self.show(key)
        self.phase_assign(subjects, "final", max(1, n_inspect // 5), max(1, n_inspect // 10))
        res = self.cli.run("validate")
        self.expect_rc(res, EX_OK, "validate after the run")
        try:
            with open(self.cli.store, "rb") as f:
                json.loads(f.read().decode("utf-8"))
            self.r.check(True, "")
        except (OSError, ValueError) as e:
            self.r.check(False, f"store file is not readable JSON at the end: {e}")


def find_binary(path: str) -> str:
    if os.sep not in path:
        found = shutil.which(path)
        if found:
            return found
    if not os.path.exists(path):
        raise Fatal(f"abconsole binary not found at {path!r}. Build it first, e.g.\n"
                    f"    swift build -c release && python3 {sys.argv[0]} --bin .build/release/abconsole")
    if os.path.isdir(path) or not os.access(path, os.X_OK):
        raise Fatal(f"{path!r} is not an executable file")
    return os.path.abspath(path)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Cross-check the abconsole CLI against reference.py.")
    ap.add_argument("--bin", required=True, metavar="PATH", help="the abconsole executable")
    ap.add_argument("--subjects", type=int, default=3000, metavar="N", help="subject ids (default 3000)")
    ap.add_argument("--ramps", type=int, default=200, metavar="N", help="ramp operations (default 200)")
    ap.add_argument("--seed", type=int, default=None, help="random seed (default: time based, printed)")
    ap.add_argument("--inspect", type=int, default=300, metavar="N",
                    help="per-subject inspect processes in the initial pass (default 300)")
    ap.add_argument("--timeout", type=float, default=30.0, metavar="SECONDS", help="per command (default 30)")
    ap.add_argument("--refuse-share", type=float, default=0.15, help="share of ramps that must be refused")
    ap.add_argument("--dry-run-share", type=float, default=0.3, help="share of ramps preceded by --dry-run")
    ap.add_argument("--assign-every", type=int, default=50, metavar="N",
                    help="re-check assignment of 300 subjects every N ramps (0: never)")
    ap.add_argument("--lenient-bucket", action="store_true",
                    help="accept a null bucket in inspect when the reason is resolved/paused/whitelisted/draft")
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory")
    ap.add_argument("--failures", type=int, default=20, metavar="N", help="failures to print (default 20)")
    ap.add_argument("-v", "--verbose", action="store_true", help="log every command to stderr")
    args = ap.parse_args(argv)
    if args.subjects < 1 or args.ramps < 0:
        ap.error("--subjects must be >= 1 and --ramps >= 0")
    if args.seed is None:
        args.seed = int(time.time() * 1000) % 1_000_000_007

    report = Report()
    try:
        binary = find_binary(args.bin)
    except Fatal as e:
        print(f"crosscheck: {e}", file=sys.stderr)
        report.check(False, "abconsole binary is missing", str(e))
        report.print_summary(args.failures)
        return 2

    os.umask(0o022)
    workdir = tempfile.mkdtemp(prefix="abconsole-crosscheck-")
    args.workdir = workdir
    store = os.path.join(workdir, "experiments.json")
    print(f"crosscheck: seed {args.seed}, binary {binary}, store {store}")
    cli = CLI(binary, store, "crosscheck", args.timeout, args.verbose)
    t0 = time.monotonic()
    try:
        Crosscheck(args, cli, report).run()
    except Fatal as e:
        report.check(False, "stopped early", str(e))
    except KeyboardInterrupt:
        report.check(False, "interrupted")
    print(f"crosscheck: {cli.calls} commands in {time.monotonic() - t0:.1f}s "
          f"(rerun with --seed {args.seed})")
    if args.keep or report.failed:
        print(f"crosscheck: kept {workdir}")
    else:
        shutil.rmtree(workdir, ignore_errors=True)
    report.print_summary(args.failures)
    return 0 if report.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
