#!/usr/bin/env python3
"""The warehouse SQL of docs/results.md (Tests/results/summary.sql) on DuckDB must give `results --summary` the same answer as
`results` on the raw logs: same metrics, totals, lifts, intervals, chances and sample-ratio verdict.

Usage: python3 Tests/results/sql_test.py [--bin .build/debug/abconsole]
Fails (never skips) when duckdb is missing: pip install duckdb.
"""
import csv
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
try:
    import duckdb
except ImportError:
    print("results sql: duckdb is missing (pip install duckdb); 0 passed, 1 failed")
    sys.exit(1)

binary = sys.argv[sys.argv.index("--bin") + 1] if "--bin" in sys.argv else os.path.join(ROOT, ".build/debug/abconsole")
SQL = open(os.path.join(HERE, "summary.sql")).read()
CUPED_SQL = open(os.path.join(HERE, "summary_cuped.sql")).read()
CUPED_COLUMNS = ["covariate_sum", "covariate_sum_squares", "cross_sum"]
NOW = "2026-11-20T00:00:00Z"
passed, failed = 0, []


def abconsole(store, *args, ok=True):
    env = {k: v for k, v in os.environ.items() if not k.startswith("ABCONSOLE_")}
    env["ABCONSOLE_NOW"] = NOW
    run = subprocess.run([binary, "--store", store, *args], capture_output=True, text=True, env=env)
    if ok and run.returncode != 0:
        raise RuntimeError("abconsole %s: exit %d: %s" % (" ".join(args), run.returncode, run.stderr))
    return run


def summary(con, store, key, window_from, window_to, hours, out, lookback=None):
    shown = json.loads(abconsole(store, "show", key, "--json").stdout)
    con.execute("CREATE OR REPLACE TABLE variants AS SELECT unnest(?::VARCHAR[]) AS name", [[v["name"] for v in shown["variants"]]])
    con.execute("CREATE OR REPLACE TABLE whitelist AS SELECT unnest(?::VARCHAR[]) AS subject", [[w["subject"] for w in shown["whitelist"]] or ["\x00none"]])
    query = (SQL if lookback is None else CUPED_SQL).format(
        experiment=key, window_from=window_from, window_to=window_to,
        conversion_window_hours="NULL" if hours is None else repr(float(hours)),
        lookback_days=repr(float(lookback or 0)))
    rows = con.execute(query).fetchall()
    with open(out, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["metric", "type", "variant", "subjects", "sum", "sum_squares"] + (CUPED_COLUMNS if lookback is not None else []))
        writer.writerows(rows)


def logs(con, exposures, conversions):
    con.execute("SET TimeZone='UTC'")
    if exposures.endswith(".csv"):
        source_e = "read_csv('%s', header=true, all_varchar=true)" % exposures
        source_c = "read_csv('%s', header=true, all_varchar=true)" % conversions
    else:
        source_e = "read_json('%s', format='newline_delimited', columns={'timestamp':'VARCHAR','experiment':'VARCHAR','variant':'VARCHAR','subject':'VARCHAR'})" % exposures
        source_c = "read_json('%s', format='newline_delimited', columns={'timestamp':'VARCHAR','subject':'VARCHAR','metric':'VARCHAR','value':'VARCHAR'})" % conversions
    con.execute("CREATE OR REPLACE VIEW exposures AS SELECT CAST(timestamp AS TIMESTAMPTZ) AS timestamp, experiment, variant, subject FROM " + source_e)
    con.execute("CREATE OR REPLACE VIEW conversions AS SELECT CAST(timestamp AS TIMESTAMPTZ) AS timestamp, subject, metric, "
                "CAST(NULLIF(value, '') AS DOUBLE) AS value FROM " + source_c)


def check(name, store, key, exposures, conversions, extra=(), hours=None, lookback=None):
    global passed
    if lookback is not None:
        extra = (*extra, "--cuped", "--lookback", str(lookback))
    try:
        with tempfile.TemporaryDirectory() as scratch:
            args = ["--exposures", exposures, "--conversions", conversions, *extra]
            if hours is not None:
                args += ["--conversion-window", str(hours)]
            raw = json.loads(abconsole(store, "results", key, *args, "--json").stdout)
            con = duckdb.connect()
            logs(con, exposures, conversions)
            out = os.path.join(scratch, "summary.csv")
            summary(con, store, key, raw["window"]["from"], raw["window"]["to"], hours, out, lookback)
            summary_extra = [a for a in extra if a not in ("--lookback", str(lookback))] if lookback is not None else extra
            from_summary = json.loads(abconsole(store, "results", key, "--summary", out, *summary_extra, "--json").stdout)
            for field in ("metrics", "srm", "window", "engine"):
                if not same(raw[field], from_summary[field]):
                    raise AssertionError("%s differs:\n raw     %s\n summary %s" % (field, json.dumps(raw[field]), json.dumps(from_summary[field])))
            if raw["subjects"]["analysed"] != from_summary["subjects"]["analysed"]:
                raise AssertionError("analysed subjects differ")
            if not raw["metrics"]:
                raise AssertionError("no metrics: the case tests nothing")
        passed += 1
        print("  ok   %s" % name)
    except Exception as error:  # noqa: BLE001 - every failure is reported by name
        failed.append(name)
        print("  FAIL %s: %s" % (name, error))


def same(a, b):
    """Equal JSON, numbers to 1e-9 relative (a summed covariate may round differently in SQL than in Swift)."""
    if isinstance(a, float) or isinstance(b, float):
        return isinstance(a, (int, float)) and isinstance(b, (int, float)) and abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def to_csv(jsonl, out, fields):
    with open(jsonl) as src, open(out, "w", newline="") as dst:
        writer = csv.writer(dst)
        writer.writerow(fields)
        for line in src:
            row = json.loads(line)
            writer.writerow(["" if row.get(f) is None else row[f] for f in fields])


def handmade(directory):
    """A tiny store and logs where every per-subject rule matters."""
    store = os.path.join(directory, "experiments.json")
    env_now = lambda t: {**{k: v for k, v in os.environ.items() if not k.startswith("ABCONSOLE_")}, "ABCONSOLE_NOW": t}
    for t, args in [("2026-01-01T00:00:00Z", ["create", "hand", "--type", "user", "--variants", "control=50,green=50"]),
                    ("2026-01-01T00:01:00Z", ["whitelist", "add", "hand", "vip", "green"]),
                    ("2026-01-01T01:00:00Z", ["start", "hand"])]:
        subprocess.run([binary, "--store", store, *args], check=True, capture_output=True, env=env_now(t))
    e = [("2026-01-01T02:00:00Z", "hand", "control", "a"), ("2026-01-01T03:00:00Z", "hand", "control", "a"),
         ("2026-01-01T02:00:00+01:00", "hand", "green", "b"), ("2026-01-01T02:30:00Z", "hand", "green", "c"),
         ("2026-01-01T04:00:00Z", "hand", "control", "c"), ("2026-01-01T02:00:00Z", "hand", "green", "vip"),
         ("2026-01-01T02:00:00Z", "hand", "blue", "d"), ("2025-12-31T23:00:00Z", "hand", "green", "early"),
         ("2026-01-01T05:00:00.25Z", "hand", "control", "e"), ("2026-01-01T05:00:00Z", "other", "green", "f")]
    c = [("2026-01-01T02:30:00Z", "a", "buy", ""), ("2026-01-01T01:00:00Z", "b", "buy", ""), ("2026-01-01T09:00:00Z", "e", "buy", ""),
         ("2026-01-01T03:00:00Z", "vip", "buy", ""), ("2026-01-01T03:00:00Z", "c", "buy", ""), ("2026-01-02T03:00:00Z", "b", "rev", "2.5"),
         ("2026-01-01T02:10:00Z", "a", "rev", "4"), ("2026-01-01T02:20:00Z", "a", "rev", ""), ("2026-01-01T05:00:00.5Z", "e", "rev", "1.25")]
    with open(os.path.join(directory, "e.csv"), "w", newline="") as f:
        csv.writer(f).writerows([("timestamp", "experiment", "variant", "subject")] + e)
    with open(os.path.join(directory, "c.csv"), "w", newline="") as f:
        csv.writer(f).writerows([("timestamp", "subject", "metric", "value")] + c)
    return store, os.path.join(directory, "e.csv"), os.path.join(directory, "c.csv")


def correlated(directory):
    """A store and logs whose subjects converted before their exposure too (CUPED's covariates): a
    proportion metric and a mean metric, some pre-period rows older than the window or the lookback."""
    import random
    rng = random.Random(7)
    store = os.path.join(directory, "cuped.json")
    env_now = lambda t: {**{k: v for k, v in os.environ.items() if not k.startswith("ABCONSOLE_")}, "ABCONSOLE_NOW": t}
    for t, args in [("2026-01-01T00:00:00Z", ["create", "pre", "--type", "user", "--variants", "control=50,green=50"]),
                    ("2026-01-10T00:00:00Z", ["start", "pre"])]:
        subprocess.run([binary, "--store", store, *args], check=True, capture_output=True, env=env_now(t))
    e, c = [], []
    for i in range(600):
        subject, variant = "s%d" % i, ("control", "green")[i % 2]
        day = 10 + rng.randrange(0, 20)
        e.append(("2026-01-%02dT%02d:00:00Z" % (day, rng.randrange(0, 24)), "pre", variant, subject))
        habit = rng.random()
        for back in range(0, 25, 3):  # pre-period rows, some before the window (Jan 10) and beyond a 14-day lookback
            if rng.random() < habit * 0.4:
                c.append(("2026-01-%02dT%02d:30:00Z" % (max(1, day - back - 1), rng.randrange(0, 24)), subject, "visit", ""))
            if rng.random() < habit * 0.5:
                c.append(("2026-01-%02dT12:00:00Z" % max(1, day - back - 1), subject, "spend", "%.2f" % (habit * 40 + rng.gauss(0, 5))))
        if rng.random() < habit * (0.9 if variant == "green" else 0.7):
            c.append(("2026-01-%02dT23:59:00Z" % min(31, day + 1), subject, "visit", ""))
        if rng.random() < habit:
            c.append(("2026-01-%02dT23:00:00Z" % min(31, day + 2), subject, "spend", "%.2f" % (habit * 40 + rng.gauss(2 if variant == "green" else 0, 5))))
    with open(os.path.join(directory, "pe.csv"), "w", newline="") as f:
        csv.writer(f).writerows([("timestamp", "experiment", "variant", "subject")] + e)
    with open(os.path.join(directory, "pc.csv"), "w", newline="") as f:
        csv.writer(f).writerows([("timestamp", "subject", "metric", "value")] + c)
    return store, os.path.join(directory, "pe.csv"), os.path.join(directory, "pc.csv")


def main():
    store = os.path.join(ROOT, "sample-data/experiments.json")
    exposures = os.path.join(ROOT, "sample-data/events/exposures.jsonl")
    conversions = os.path.join(ROOT, "sample-data/events/conversions.jsonl")
    for key in ("account_add_funds", "app_color_scheme", "ebook_promotion"):
        check("%s, JSON Lines" % key, store, key, exposures, conversions)
        check("%s, conversion window 24 h" % key, store, key, exposures, conversions, hours=24)
        check("%s, --from/--to, frequentist" % key, store, key, exposures, conversions,
              extra=("--from", "2026-06-10T00:00:00+02:00", "--to", "2026-08-01T00:00:00Z", "--engine", "frequentist"))
        check("%s, CUPED, lookback 14 days (summary_cuped.sql)" % key, store, key, exposures, conversions, lookback=14)
        check("%s, CUPED, lookback 3 days, --from" % key, store, key, exposures, conversions, lookback=3,
              extra=("--from", "2026-06-10T00:00:00Z"))
    with tempfile.TemporaryDirectory() as scratch:
        e_csv, c_csv = os.path.join(scratch, "e.csv"), os.path.join(scratch, "c.csv")
        to_csv(exposures, e_csv, ["timestamp", "experiment", "variant", "subject"])
        to_csv(conversions, c_csv, ["timestamp", "subject", "metric", "value"])
        check("account_add_funds, CSV", store, "account_add_funds", e_csv, c_csv)
        hand_store, hand_e, hand_c = handmade(scratch)
        check("hand-made rules (crossover, whitelist, unknown variant, before exposure, offsets)", hand_store, "hand", hand_e, hand_c)
        check("hand-made rules, conversion window 1.5 h", hand_store, "hand", hand_e, hand_c, hours=1.5)
        check("hand-made rules, CUPED lookback 0.5 days", hand_store, "hand", hand_e, hand_c, lookback=0.5)
        pre_store, pre_e, pre_c = correlated(scratch)
        for lookback, engine in ((14, "bayesian"), (5.5, "frequentist"), (40, "bayesian")):
            check("pre-period conversions, CUPED lookback %s days, %s" % (lookback, engine), pre_store, "pre", pre_e, pre_c,
                  extra=("--engine", engine), lookback=lookback)
    print("results sql: %d passed, %d failed" % (passed, len(failed)))
    sys.exit(1 if failed else 0)


main()
