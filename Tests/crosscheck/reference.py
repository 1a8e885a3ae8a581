#!/usr/bin/env python3
"""Independent reference of abconsole's bucketing, ramping and assignment rules.

Written from /work/shared/SPEC.md (sections 2, 3, 4, 6, 7) only, in plain Python 3.11 with the
standard library, to cross-check the Swift implementation through its CLI (see crosscheck.py).

Run `python3 Tests/crosscheck/reference.py` for the self-test (SPEC vectors, hand-computed
decision-table cases, and properties of check_ramp).

Conventions:
- Weights are handled internally as whole *buckets* (hundredths of a percent, 0..10000), never as
  floats, so "weight x 100 exactly" is an integer comparison.
- `experiment` dicts have the shape printed by `abconsole show EXP --json` (SPEC section 7).
"""

from __future__ import annotations

import random
import sys
from decimal import Decimal, InvalidOperation
from typing import Iterable

BUCKETS = 10000
FNV_OFFSET = 2166136261
FNV_PRIME = 16777619
UNALLOCATED = None  # owner of a bucket no variant owns

REASONS = ("resolved", "paused", "no_subject", "whitelisted", "draft", "bucketed", "not_enrolled")


# --------------------------------------------------------------------------------------------
# SPEC section 2: bucketing
# --------------------------------------------------------------------------------------------

def fnv1a32(data: bytes) -> int:
    """32-bit FNV-1a over bytes (offset basis 2166136261, prime 16777619)."""
    h = FNV_OFFSET
    for byte in data:
        h ^= byte
        h = (h * FNV_PRIME) & 0xFFFFFFFF
    return h


def first_hash(salt: str, subject: str) -> int:
    """fnv1a32(utf8(salt + subject)); no Unicode normalisation, the bytes are hashed as given."""
    return fnv1a32((salt + subject).encode("utf-8"))


def bucket(salt: str, subject: str) -> int:
    """bucket(salt, subject) = fnv1a32(decimal(fnv1a32(utf8(salt + subject)))) mod 10000."""
    return fnv1a32(str(first_hash(salt, subject)).encode("ascii")) % BUCKETS


# --------------------------------------------------------------------------------------------
# Weights and ranges (SPEC sections 1 and 3)
# --------------------------------------------------------------------------------------------

class SpecError(ValueError):
    """A value that the SPEC does not allow (e.g. a weight that is not a whole bucket)."""


def weight_to_buckets(weight) -> int:
    """Percent (JSON number, or a numeric string) -> whole buckets (0.01 % = 1 bucket).

    Accepts harmless binary-float noise from a JSON encoder (30.500000000000004) but rejects a
    weight that really has more than two decimals (30.505)."""
    if isinstance(weight, bool) or weight is None:
        raise SpecError(f"weight {weight!r} is not a number")
    if isinstance(weight, int):
        return weight * 100
    if isinstance(weight, float):
        scaled = weight * 100
        nearest = round(scaled)
        if abs(scaled - nearest) > 1e-6:
            raise SpecError(f"weight {weight!r} is not a whole number of 0.01 % buckets")
        return int(nearest)
    try:
        d = Decimal(str(weight)) * 100
    except InvalidOperation:
        raise SpecError(f"weight {weight!r} is not a number") from None
    if d != d.to_integral_value():
        raise SpecError(f"weight {weight!r} has more than two decimals")
    return int(d)


def buckets_to_pct(b: int) -> str:
    """Whole buckets -> the shortest percent text with at most two decimals ("20", "30.5", "0.01")."""
    if b < 0:
        return "-" + buckets_to_pct(-b)
    whole, frac = divmod(b, 100)
    return str(whole) if frac == 0 else f"{whole}.{frac:02d}".rstrip("0")


def create_layout(weights_in_buckets: Iterable[int]) -> list[list[list[int]]]:
    """SPEC section 3 Create: variants laid out contiguously from bucket 0 in the order given.
    Returns, per variant, its list of [start, end) ranges (a zero weight owns no range)."""
    out, start = [], 0
    for w in weights_in_buckets:
        out.append([[start, start + w]] if w > 0 else [])
        start += w
    if start > BUCKETS:
        raise SpecError(f"weights sum to {buckets_to_pct(start)} %, over 100 %")
    return out


def range_problems(experiment: dict, where: str = "") -> list[str]:
    """Structural rules of section 3: half-open ranges inside [0, 10000), no overlap (within and
    across variants), bucket count == weight x 100, weights sum <= 100 %."""
    problems = []
    key = experiment.get("key", "?")
    owner: dict[int, str] = {}
    total = 0
    for v in experiment.get("variants", []):
        name = v.get("name")
        try:
            w = weight_to_buckets(v.get("weight"))
        except SpecError as e:
            problems.append(f"{where}{key}/{name}: {e}")
            continue
        if w < 0 or w > BUCKETS:
            problems.append(f"{where}{key}/{name}: weight {v.get('weight')!r} outside 0..100 %")
        total += w
        count = 0
        for r in v.get("ranges", []):
            if (not isinstance(r, list) or len(r) != 2
                    or not all(isinstance(x, int) and not isinstance(x, bool) for x in r)):
                problems.append(f"{where}{key}/{name}: range {r!r} is not [start, end] integers")
                continue
            s, e = r
            if not (0 <= s < e <= BUCKETS):
                problems.append(f"{where}{key}/{name}: range [{s},{e}) is empty or outside [0,10000)")
                continue
            for b in range(s, e):
                if b in owner:
                    problems.append(f"{where}{key}/{name}: bucket {b} (range [{s},{e})) "
                                    f"overlaps variant {owner[b]}")
                    break
            for b in range(s, e):
                owner.setdefault(b, name)
            count += e - s
        if count != w:
            problems.append(f"{where}{key}/{name}: owns {count} buckets but weight "
                            f"{v.get('weight')!r} % means exactly {w}")
    if total > BUCKETS:
        problems.append(f"{where}{key}: weights sum to {buckets_to_pct(total)} %, over 100 %")
    return problems


def owners(experiment: dict) -> list:
    """Bucket -> owning variant name (None when unallocated). First owner wins on overlap."""
    table: list = [UNALLOCATED] * BUCKETS
    for v in experiment.get("variants", []):
        for r in v.get("ranges", []):
            try:
                s, e = r
                for b in range(max(0, s), min(BUCKETS, e)):
                    if table[b] is UNALLOCATED:
                        table[b] = v.get("name")
            except (TypeError, ValueError):
                continue
    return table


def weights(experiment: dict) -> dict[str, int]:
    """Variant name -> weight in buckets (unparseable weights count as 0 here; range_problems
    reports them)."""
    out = {}
    for v in experiment.get("variants", []):
        try:
            out[v.get("name")] = weight_to_buckets(v.get("weight"))
        except SpecError:
            out[v.get("name")] = 0
    return out


# --------------------------------------------------------------------------------------------
# SPEC section 4: assignment
# --------------------------------------------------------------------------------------------

def subject_of(experiment: dict, user: str | None, device: str | None) -> str | None:
    """The subject id of the experiment's type: the user id for `user`, the device id for
    `device`. An empty string is not a subject id (ids are 1..256 characters)."""
    sid = user if experiment.get("type") == "user" else device
    return sid if sid else None


def decide(experiment: dict, user: str | None, device: str | None):
    """SPEC section 4 decision table, first match wins.

    Returns (variant | None, reason, bucket | None). `bucket` is computed from the experiment's
    salt whenever the subject of the experiment's type is present (inspect shows it even when the
    reason is resolved / paused / whitelisted / draft), and None when the subject is missing."""
    status = experiment.get("status")
    control = experiment.get("control")
    subject = subject_of(experiment, user, device)
    b = bucket(experiment.get("salt", ""), subject) if subject is not None else None

    if status == "resolved":                                           # 1
        return experiment.get("winner"), "resolved", b
    if status == "paused":                                             # 2
        return control, "paused", b
    if subject is None:                                                # 3
        return control, "no_subject", None
    if status in ("draft", "running"):                                 # 4
        for entry in experiment.get("whitelist", []) or []:
            if entry.get("subject") == subject:                        # exact code points
                return entry.get("variant"), "whitelisted", b
    if status == "draft":                                              # 5
        return control, "draft", b
    for v in experiment.get("variants", []):                           # 6
        for s, e in v.get("ranges", []):
            if s <= b < e:
                return v.get("name"), "bucketed", b
    return control, "not_enrolled", b                                  # 7


class Decider:
    """decide() with the per-experiment work done once (for thousands of subjects)."""

    def __init__(self, experiment: dict):
        self.exp = experiment
        self.owner = owners(experiment)
        self.whitelist = {e.get("subject"): e.get("variant")
                          for e in (experiment.get("whitelist") or [])}

    def __call__(self, user, device):
        exp = self.exp
        status, control = exp.get("status"), exp.get("control")
        subject = subject_of(exp, user, device)
        b = bucket(exp.get("salt", ""), subject) if subject is not None else None
        if status == "resolved":
            return exp.get("winner"), "resolved", b
        if status == "paused":
            return control, "paused", b
        if subject is None:
            return control, "no_subject", None
        if status in ("draft", "running") and subject in self.whitelist:
            return self.whitelist[subject], "whitelisted", b
        if status == "draft":
            return control, "draft", b
        o = self.owner[b]
        return (o, "bucketed", b) if o is not None else (control, "not_enrolled", b)


# --------------------------------------------------------------------------------------------
# SPEC section 3: ramping
# --------------------------------------------------------------------------------------------

def check_ramp(old_show: dict, new_show: dict, reported_moved_share: float) -> list[str]:
    """Problems with a ramp from old_show to new_show (both `show --json` dicts); [] if fine.

    - every variant's bucket count == weight x 100 exactly; ranges half-open within [0,10000),
      non-overlapping; weights sum <= 100 %;
    - buckets whose owner (a variant or the unallocated pool) changed ==
      sum over the variants and the unallocated pool of max(0, new - old) ==
      reported_moved_share x 10000 (within 0.5 bucket);
    - a variant whose weight did not decrease keeps every bucket it had (and one whose weight did
      not increase gains none — implied by the count rule, reported separately to be clearer);
    - a ramp changes weights only: same variants, salt, type, control, status, winner, whitelist.
    """
    problems = [f"before ramp: {p}" for p in range_problems(old_show)]
    problems += [f"after ramp: {p}" for p in range_problems(new_show)]

    key = new_show.get("key", old_show.get("key", "?"))
    for field in ("key", "type", "salt", "control", "status", "winner"):
        if old_show.get(field) != new_show.get(field):
            problems.append(f"{key}: ramp changed {field} from {old_show.get(field)!r} "
                            f"to {new_show.get(field)!r}")
    wl = lambda s: sorted((e.get("subject"), e.get("variant")) for e in (s.get("whitelist") or []))
    if wl(old_show) != wl(new_show):
        problems.append(f"{key}: ramp changed the whitelist")
    old_names = [v.get("name") for v in old_show.get("variants", [])]
    new_names = [v.get("name") for v in new_show.get("variants", [])]
    if sorted(old_names) != sorted(new_names):
        problems.append(f"{key}: ramp changed the variants from {old_names} to {new_names}")

    ow, nw = weights(old_show), weights(new_show)
    names = sorted(set(ow) | set(nw), key=str)
    old_un = BUCKETS - sum(ow.values())
    new_un = BUCKETS - sum(nw.values())
    tv = sum(max(0, nw.get(n, 0) - ow.get(n, 0)) for n in names) + max(0, new_un - old_un)

    oo, no = owners(old_show), owners(new_show)
    changed = sum(1 for b in range(BUCKETS) if oo[b] != no[b])
    if changed != tv:
        problems.append(f"{key}: {changed} buckets changed owner, but the weights move "
                        f"sum(max(0,new-old)) = {tv} (old {_fmt_w(ow)}, new {_fmt_w(nw)})")
    if reported_moved_share is None or isinstance(reported_moved_share, bool) \
            or not isinstance(reported_moved_share, (int, float)):
        problems.append(f"{key}: reported moved_share {reported_moved_share!r} is not a number")
    elif abs(reported_moved_share * BUCKETS - tv) > 0.5:
        problems.append(f"{key}: reported moved_share {reported_moved_share!r} = "
                        f"{reported_moved_share * BUCKETS:.2f} buckets, expected {tv} "
                        f"(= {tv / BUCKETS!r}); buckets that actually changed owner: {changed}")

    old_sets: dict = {}
    new_sets: dict = {}
    for b in range(BUCKETS):
        if oo[b] != no[b]:
            old_sets.setdefault(oo[b], set()).add(b)
            new_sets.setdefault(no[b], set()).add(b)
    for n in names:
        o_set = old_sets.get(n, set())   # buckets n had and lost
        n_set = new_sets.get(n, set())   # buckets n did not have and gained
        if nw.get(n, 0) >= ow.get(n, 0) and o_set:
            lost = sorted(o_set)
            problems.append(f"{key}/{n}: weight {buckets_to_pct(ow.get(n, 0))} -> "
                            f"{buckets_to_pct(nw.get(n, 0))} % did not decrease, yet it lost "
                            f"{len(lost)} bucket(s), e.g. {_fmt_buckets(lost)}")
        if nw.get(n, 0) <= ow.get(n, 0) and n_set:
            gained = sorted(n_set)
            problems.append(f"{key}/{n}: weight {buckets_to_pct(ow.get(n, 0))} -> "
                            f"{buckets_to_pct(nw.get(n, 0))} % did not increase, yet it gained "
                            f"{len(gained)} bucket(s), e.g. {_fmt_buckets(gained)}")
    return problems


def tv_buckets(old: dict[str, int], new: dict[str, int]) -> int:
    """sum over variants and the unallocated pool of max(0, new - old), in buckets."""
    names = set(old) | set(new)
    gain = sum(max(0, new.get(n, 0) - old.get(n, 0)) for n in names)
    return gain + max(0, (BUCKETS - sum(new.values())) - (BUCKETS - sum(old.values())))


def apply_ramp(show: dict, new_weights: dict[str, int]) -> dict:
    """One minimal ramp (used by the self-test to exercise check_ramp; the product may choose
    other buckets). Shrinking variants release their highest buckets; growing variants take the
    released buckets first, then unallocated ones from the lowest."""
    table = owners(show)
    free_pool = [b for b in range(BUCKETS) if table[b] is UNALLOCATED]
    old = weights(show)
    target = dict(old)
    target.update(new_weights)
    released = []
    for v in show["variants"]:
        n = v["name"]
        excess = old[n] - target[n]
        if excess > 0:
            mine = [b for b in range(BUCKETS - 1, -1, -1) if table[b] == n][:excess]
            for b in mine:
                table[b] = UNALLOCATED
            released += mine
    pool = iter(sorted(released) + free_pool)
    for v in show["variants"]:
        n = v["name"]
        for _ in range(max(0, target[n] - old[n])):
            table[next(pool)] = n
    new = {k: val for k, val in show.items() if k != "variants"}
    new["variants"] = []
    for v in show["variants"]:
        n = v["name"]
        nv = dict(v)
        nv["weight"] = target[n] / 100
        nv["ranges"] = to_ranges(b for b in range(BUCKETS) if table[b] == n)
        new["variants"].append(nv)
    return new


def to_ranges(sorted_buckets: Iterable[int]) -> list[list[int]]:
    out: list[list[int]] = []
    for b in sorted_buckets:
        if out and out[-1][1] == b:
            out[-1][1] = b + 1
        else:
            out.append([b, b + 1])
    return out


def _fmt_w(w: dict[str, int]) -> str:
    return "{" + ", ".join(f"{n}={buckets_to_pct(x)}" for n, x in sorted(w.items(), key=str)) + "}"


def _fmt_buckets(bs: list[int]) -> str:
    r = to_ranges(bs)
    shown = ", ".join(f"[{s},{e})" for s, e in r[:5])
    return shown + (" ..." if len(r) > 5 else "")


# --------------------------------------------------------------------------------------------
# Self-test
# --------------------------------------------------------------------------------------------

SPEC_VECTORS = [  # (salt, subject, fnv1a32(salt+subject), bucket) — SPEC section 2
    ("account_add_funds", "user-1", 198645014, 6471),
    ("account_add_funds", "user-42", 1235373381, 1165),
    ("app_color_scheme", "device-7f3a", 2270950710, 2440),
    ("cash_projection_banner", "1001", 2506208163, 1436),
    ("", "x", 4245442695, 9986),
    ("ebook_promotion", "h\u00e9llo", 961499938, 439),
]


def _exp(**kw) -> dict:
    base = {
        "key": "account_add_funds", "type": "user", "status": "running",
        "salt": "account_add_funds", "control": "a", "winner": None, "description": "",
        "revision": 1,
        # 20 / 30 / 0 with 50 % unallocated: a=[0,2000) b=[2000,5000) c=weight 0
        "variants": [
            {"name": "a", "weight": 20, "ranges": [[0, 2000]], "payload": None},
            {"name": "b", "weight": 30, "ranges": [[2000, 5000]], "payload": None},
            {"name": "c", "weight": 0, "ranges": [], "payload": None},
        ],
        "whitelist": [],
    }
    base.update(kw)
    return base


def self_test() -> int:
    passed = failed = 0

    def check(cond, what):
        nonlocal passed, failed
        if cond:
            passed += 1
        else:
            failed += 1
            print(f"FAIL: {what}")

    # 1. SPEC vectors, and the FNV-1a standard test values.
    check(fnv1a32(b"") == 0x811C9DC5, "fnv1a32('') == 0x811c9dc5")
    check(fnv1a32(b"a") == 0xE40C292C, "fnv1a32('a') == 0xe40c292c")
    check(fnv1a32(b"foobar") == 0xBF9CF968, "fnv1a32('foobar') == 0xbf9cf968")
    for salt, subject, h, bk in SPEC_VECTORS:
        check(first_hash(salt, subject) == h,
              f"fnv1a32({salt!r}+{subject!r}) = {first_hash(salt, subject)}, SPEC says {h}")
        check(bucket(salt, subject) == bk,
              f"bucket({salt!r}, {subject!r}) = {bucket(salt, subject)}, SPEC says {bk}")
    # NFD 'héllo' is a different byte string, hence (here) a different bucket.
    check(bucket("ebook_promotion", "he\u0301llo") != 439, "NFD subject hashes its own bytes")

    # 2. Decision table. user-42 -> bucket 1165 (in a), user-1 -> 6471 (unallocated).
    e = _exp()
    check(decide(e, "user-42", None) == ("a", "bucketed", 1165), "row 6: bucket 1165 owned by a")
    check(decide(e, "user-1", None) == ("a", "not_enrolled", 6471),
          "row 7: bucket 6471 unallocated -> control")
    e_c = _exp(control="b")
    check(decide(e_c, "user-1", "dev") == ("b", "not_enrolled", 6471), "row 7 uses control b")
    e3 = _exp(variants=[
        {"name": "a", "weight": 20, "ranges": [[0, 2000]], "payload": None},
        {"name": "b", "weight": 30, "ranges": [[2000, 5000]], "payload": None},
        {"name": "c", "weight": 50, "ranges": [[5000, 10000]], "payload": None}])
    check(decide(e3, "user-1", None) == ("c", "bucketed", 6471), "row 6: bucket 6471 owned by c")
    check(decide(e, None, "device-7f3a") == ("a", "no_subject", None),
          "row 3: user experiment, only a device id")
    check(decide(e, "", None) == ("a", "no_subject", None), "row 3: empty user id is no subject")
    wl = [{"subject": "user-1", "variant": "c", "note": "", "added_by": "x", "added_at": "t"}]
    check(decide(_exp(whitelist=wl), "user-1", None) == ("c", "whitelisted", 6471),
          "row 4: whitelisted to a weight-0 variant")
    check(decide(_exp(whitelist=wl), "user-42", None) == ("a", "bucketed", 1165),
          "row 4 only for the whitelisted subject")
    check(decide(_exp(whitelist=wl, status="draft"), "user-1", None) == ("c", "whitelisted", 6471),
          "row 4 applies to drafts")
    check(decide(_exp(status="draft"), "user-42", None) == ("a", "draft", 1165), "row 5: draft")
    check(decide(_exp(whitelist=wl, status="paused"), "user-1", None) == ("a", "paused", 6471),
          "row 2: paused beats whitelist")
    check(decide(_exp(status="paused"), None, None) == ("a", "paused", None),
          "row 2: paused beats no_subject")
    check(decide(_exp(status="resolved", winner="b", whitelist=wl), "user-1", None)
          == ("b", "resolved", 6471), "row 1: resolved beats whitelist")
    check(decide(_exp(status="resolved", winner="b"), None, None) == ("b", "resolved", None),
          "row 1: resolved beats no_subject")
    dev = _exp(key="app_color_scheme", type="device", salt="app_color_scheme",
               variants=[{"name": "a", "weight": 24.41, "ranges": [[0, 2441]], "payload": None},
                         {"name": "b", "weight": 75.59, "ranges": [[2441, 10000]], "payload": None}])
    check(decide(dev, "user-42", "device-7f3a") == ("a", "bucketed", 2440),
          "device experiment buckets the device id (2440 in [0,2441))")
    dev2 = dict(dev, variants=[
        {"name": "a", "weight": 24.4, "ranges": [[0, 2440]], "payload": None},
        {"name": "b", "weight": 75.6, "ranges": [[2440, 10000]], "payload": None}])
    check(decide(dev2, None, "device-7f3a") == ("b", "bucketed", 2440), "half-open: 2440 not in [0,2440)")
    check(decide(dev, "device-7f3a", None) == ("a", "no_subject", None),
          "device experiment ignores the user id")
    e_salt = _exp(salt="")
    check(decide(e_salt, "x", None) == ("a", "not_enrolled", 9986), "bucket uses the stored salt")
    for st in ("resolved", "paused", "draft", "running"):
        for u in ("user-1", "user-42", None, ""):
            ex = _exp(status=st, winner="b" if st == "resolved" else None, whitelist=wl)
            check(Decider(ex)(u, "d") == decide(ex, u, "d"), f"Decider == decide ({st}, {u!r})")

    # 3. Layout on create (SPEC section 3 example) and weight parsing.
    check(create_layout([2000, 3000, 5000]) == [[[0, 2000]], [[2000, 5000]], [[5000, 10000]]],
          "create 20/30/50 -> [0,2000) [2000,5000) [5000,10000)")
    check(create_layout([1, 0, 2]) == [[[0, 1]], [], [[1, 3]]], "create with a weight-0 variant")
    check(weight_to_buckets(30.5) == 3050 and weight_to_buckets(0.07) == 7
          and weight_to_buckets(20) == 2000 and weight_to_buckets(0.1 + 0.2) == 30,
          "weight_to_buckets on numbers")
    try:
        weight_to_buckets(10.005)
        check(False, "10.005 % must be refused")
    except SpecError:
        check(True, "")
    check([buckets_to_pct(x) for x in (2000, 3050, 1, 10, 0, 10000)]
          == ["20", "30.5", "0.01", "0.1", "0", "100"], "buckets_to_pct")

    # 4. check_ramp: a correct minimal ramp passes, bad ones are caught.
    old = e3
    new = apply_ramp(old, {"a": 1000, "b": 4000})   # a -10, b +10: a's released go to b
    check(check_ramp(old, new, 0.1) == [], f"minimal ramp passes: {check_ramp(old, new, 0.1)}")
    check(check_ramp(old, new, 0.2) != [], "wrong reported share is caught")
    # a 20->10, c 50->60 re-laid out contiguously from 0: b shifts although its weight is unchanged.
    bad = dict(old, variants=[
        {"name": "a", "weight": 10, "ranges": [[0, 1000]], "payload": None},
        {"name": "b", "weight": 30, "ranges": [[1000, 4000]], "payload": None},
        {"name": "c", "weight": 60, "ranges": [[4000, 10000]], "payload": None}])
    bad_probs = check_ramp(old, bad, 0.1)
    check(any("changed owner" in p for p in bad_probs) and any("b: weight" in p for p in bad_probs),
          f"re-laying-out from 0 (b moves) is caught: {bad_probs}")
    # a shrinks by 10, c grows by 10 but takes unallocated while a's go to unallocated.
    e20 = _exp()
    wrong = dict(e20, variants=[
        {"name": "a", "weight": 10, "ranges": [[0, 1000]], "payload": None},
        {"name": "b", "weight": 30, "ranges": [[2000, 5000]], "payload": None},
        {"name": "c", "weight": 10, "ranges": [[5000, 6000]], "payload": None}])
    check(any("changed owner" in p for p in check_ramp(e20, wrong, 0.1)),
          "growing variant must take released buckets before unallocated ones")
    right = apply_ramp(e20, {"a": 1000, "c": 1000})
    check(check_ramp(e20, right, 0.1) == [], f"released-first ramp passes: {check_ramp(e20, right, 0.1)}")
    overlap = dict(e3, variants=[dict(e3["variants"][0], ranges=[[0, 2001]], weight=20.01)]
                   + e3["variants"][1:])
    check(any("overlaps" in p for p in range_problems(overlap)), "overlap is caught")
    miscount = dict(e3, variants=[dict(e3["variants"][0], weight=19.99)] + e3["variants"][1:])
    check(any("exactly" in p for p in range_problems(miscount)), "count != weight x 100 is caught")
    check(any("changed salt" in p for p in check_ramp(e3, dict(e3, salt="zz"), 0.0)),
          "a ramp must not change the salt")
    # Random property test: apply_ramp always satisfies check_ramp.
    rng = random.Random(7)
    cur = _exp(variants=[{"name": n, "weight": 0, "ranges": [], "payload": None} for n in "abcd"])
    ok = True
    for _ in range(60):
        names = rng.sample("abcd", rng.randint(1, 4))
        others = sum(w for n, w in weights(cur).items() if n not in names)
        budget = BUCKETS - others
        cuts = sorted(rng.randint(0, rng.randint(0, budget)) for _ in names)
        parts = [cuts[0]] + [cuts[i] - cuts[i - 1] for i in range(1, len(cuts))]
        nw = dict(zip(names, parts))
        share = tv_buckets(weights(cur), {**weights(cur), **nw}) / BUCKETS
        nxt = apply_ramp(cur, nw)
        probs = check_ramp(cur, nxt, share)
        if probs:
            ok = False
            print("   ", probs[:3])
            break
        cur = nxt
    check(ok, "60 random minimal ramps pass check_ramp")

    print(f"reference: {passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(self_test())
