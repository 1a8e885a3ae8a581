#!/usr/bin/env python3
"""Writes sample-data/events/{exposures,conversions}.jsonl for the sample experiments, deterministically.

Subjects are bucketed exactly as abconsole does (SPEC §2), so every exposure names the variant
`abconsole assign` gives. Three stories for `abconsole demo`:
  account_add_funds  a clear winner (account_view converts ~40 % better, and deposits more)
  app_color_scheme   flat (the three schemes do the same)
  ebook_promotion    a sample-ratio mismatch (a third of newsletter's exposures never got logged)
Usage: python3 sample-data/generate_events.py   (fixed seed; rerunning gives the same bytes)
"""
import json
import os
import random
from datetime import datetime, timedelta, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
rng = random.Random(20261120)


def fnv1a32(data: bytes) -> int:
    h = 2166136261
    for b in data:
        h = ((h ^ b) * 16777619) & 0xFFFFFFFF
    return h


def bucket(salt: str, subject: str) -> int:
    return fnv1a32(str(fnv1a32((salt + subject).encode())).encode()) % 10000


def owner(ranges, b):
    for name, (start, end) in ranges:
        if start <= b < end:
            return name
    return None


def stamp(t: datetime) -> str:
    text = t.strftime("%Y-%m-%dT%H:%M:%S")
    if t.microsecond:
        text += ".%03d" % (t.microsecond // 1000)
    return text + "Z"


exposures = []
conversions = []
# Each analysed subject's first exposure and counted values per experiment, for the pre-exposure rows below.
firsts = {}


def run(key, ranges, subjects, start, days, rates, seed, logged=lambda v: True):
    """rates: variant -> list of (metric, probability, value or None, value spread); each experiment its own seed."""
    global rng
    rng = random.Random(seed)
    for subject in subjects:
        b = bucket(key, subject)
        variant = owner(ranges, b)
        if variant is None:
            continue
        first = start + timedelta(seconds=rng.uniform(0, days * 86400))
        first = first.replace(microsecond=rng.randrange(0, 1000) * 1000)
        if not logged(variant):
            continue
        firsts.setdefault(key, {})[subject] = (first, {})
        times = [first] + [first + timedelta(seconds=rng.uniform(60, 3 * 86400)) for _ in range(rng.choice([0, 0, 0, 0, 1, 2]))]
        for t in times:
            exposures.append((t, {"timestamp": stamp(t), "experiment": key, "variant": variant, "subject": subject}))
        for metric, p, value, spread in rates[variant]:
            if rng.random() < p:
                t = first + timedelta(seconds=rng.uniform(30, 5 * 86400))
                row = {"timestamp": stamp(t), "subject": subject, "metric": metric}
                if value is not None:
                    row["value"] = round(max(1.0, rng.gauss(value, spread)) * 4) / 4
                conversions.append((t, row))
                firsts[key][subject][1][metric] = row.get("value")


SEEDS = [int(x) for x in os.environ.get("SEEDS", "15,8,3").split(",")]
users = ["u-%05d" % i for i in range(1, 6001)]
devices = ["dev-%06x" % rng.randrange(16 ** 6) for _ in range(2600)]

run("account_add_funds", [("control", (0, 5000)), ("account_view", (5000, 10000))], users[:2700],
    datetime(2026, 6, 3, 8, 0, tzinfo=timezone.utc), 21,
    {"control": [("add_funds", 0.10, None, 0), ("deposit", 0.10, 40.0, 15.0)],
     "account_view": [("add_funds", 0.145, None, 0), ("deposit", 0.145, 44.0, 15.0)]}, seed=SEEDS[0])

run("app_color_scheme", [("classic", (0, 4000)), ("dark", (4000, 8000)), ("high_contrast", (8000, 10000))], devices,
    datetime(2026, 6, 11, 7, 30, tzinfo=timezone.utc), 14,
    {v: [("onboarding_done", 0.31, None, 0)] for v in ("classic", "dark", "high_contrast")}, seed=SEEDS[1])

run("ebook_promotion", [("control", (0, 3400)), ("social_share", (3400, 6700)), ("newsletter", (6700, 10000))], users[2400:5200],
    datetime(2026, 7, 16, 9, 0, tzinfo=timezone.utc), 14,
    {"control": [("ebook_unlock", 0.08, None, 0)], "social_share": [("ebook_unlock", 0.09, None, 0)],
     "newsletter": [("ebook_unlock", 0.11, None, 0)]}, seed=SEEDS[2],
    logged=lambda v: v != "newsletter" or rng.random() < 0.8)



def pre_exposure(key, metrics, seed):
    """The same metrics in the 13 days before each subject's first exposure, with their own seed (the rows
    above keep their bytes): most subjects who convert after exposure did before too, at a similar value,
    few others did, so `results KEY --cuped` narrows the intervals (SPEC §12)."""
    pre = random.Random(seed)
    for subject, (first, after) in sorted(firsts[key].items()):
        for metric, spread in metrics:
            converted = metric in after
            if pre.random() >= (0.6 if converted else 0.05):
                continue
            t = first - timedelta(seconds=pre.uniform(86400, 13 * 86400))
            row = {"timestamp": stamp(t.replace(microsecond=pre.randrange(0, 1000) * 1000)), "subject": subject, "metric": metric}
            if spread is not None:
                base = after[metric] if converted else max(1.0, pre.gauss(40.0, spread))
                row["value"] = round(max(1.0, base * pre.uniform(0.8, 1.2)) * 4) / 4
            conversions.append((t, row))


pre_exposure("account_add_funds", [("add_funds", None), ("deposit", 15.0)], seed=29)

# A dogfooding employee on the whitelist shows up in the logs: results set them aside, with a warning.
t = datetime(2026, 6, 4, 9, 30, tzinfo=timezone.utc)
exposures.append((t, {"timestamp": stamp(t), "experiment": "account_add_funds", "variant": "account_view", "subject": "emp-1001"}))

os.makedirs(os.path.join(HERE, "events"), exist_ok=True)
for name, rows in (("exposures", exposures), ("conversions", conversions)):
    rows.sort(key=lambda r: (r[0], json.dumps(r[1], sort_keys=True)))
    with open(os.path.join(HERE, "events", name + ".jsonl"), "w") as f:
        for _, row in rows:
            f.write(json.dumps(row, separators=(",", ":")) + "\n")
print("exposures: %d rows, conversions: %d rows" % (len(exposures), len(conversions)))
