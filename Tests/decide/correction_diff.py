#!/usr/bin/env python3
"""`abconsole results --correction holm|bh` (SPEC §12 "Multiple comparisons") against statsmodels'
`multipletests` (holm, fdr_bh): random experiments of 3 to 6 variants, a goal, a guardrail and another
metric, read from generated summaries through the real process. Checks the adjusted p-values of the
family (the goal × the non-control variants; without a goal, every metric but the guardrails), that
guardrails stay out of it, that the verdicts read the adjusted p-values, the text's correction line,
and that the Bayesian engine is refused (64).

    python3 Tests/decide/correction_diff.py --bin .build/debug/abconsole [--cases 60]

Prints "correction: N passed, M failed"; exit 1 on any failure. Fails (never skips) without statsmodels.
"""
import csv
import json
import os
import random
import subprocess
import sys
import tempfile

try:
    from statsmodels.stats.multitest import multipletests
except ImportError:
    print("correction: statsmodels is missing (pip install statsmodels); 0 passed, 1 failed")
    sys.exit(1)

binary = sys.argv[sys.argv.index("--bin") + 1] if "--bin" in sys.argv else ".build/debug/abconsole"
CASES = int(sys.argv[sys.argv.index("--cases") + 1]) if "--cases" in sys.argv else 60
ENV = {**{k: v for k, v in os.environ.items() if not k.startswith("ABCONSOLE_")},
       "ABCONSOLE_NOW": "2026-03-01T10:00:00Z", "ABCONSOLE_OPERATOR": "correction-test"}
METHODS = {"holm": "holm", "bh": "fdr_bh"}
passed, failed = 0, []
# Comparisons the correction turned from significant to not: the test must meet some, or it proves nothing.
crossed = 0
largest = 0.0


def run(store, *args):
    return subprocess.run([binary, "--store", store, *args], capture_output=True, text=True, env=ENV)


def ok(store, *args):
    result = run(store, *args)
    if result.returncode != 0:
        raise RuntimeError("abconsole %s: exit %d: %s" % (" ".join(args), result.returncode, result.stderr))
    return result


def check(name, condition, detail=""):
    global passed
    if condition:
        passed += 1
    else:
        failed.append("%s: %s" % (name, detail))


def summary_rows(rng, variants):
    """Proportion `buy` (effects from none to large, so some p-values are tiny and some near 1), proportion
    `refund` and mean `spend`, per variant."""
    rows = []
    base = rng.uniform(0.05, 0.3)
    for index, variant in enumerate(variants):
        n = rng.randint(300, 4000)
        for metric, rate in (("buy", base * (1 + (0 if index == 0 else rng.choice([0, 0, 0.05, 0.15, 0.4, -0.2])))),
                             ("refund", 0.05 * (1 + (0 if index == 0 else rng.uniform(-0.5, 0.5))))):
            conversions = sum(1 for _ in range(n) if rng.random() < min(0.99, rate))
            rows.append([metric, "proportion", variant, n, conversions, conversions])
        values = [max(0.0, rng.gauss(20 + (0 if index == 0 else rng.uniform(-2, 2)), 8)) for _ in range(n)]
        rows.append(["spend", "mean", variant, n, sum(values), sum(v * v for v in values)])
    return rows


def one_case(case, rng, scratch):
    k = rng.randint(3, 6)
    variants = ["control"] + ["v%d" % i for i in range(1, k)]
    store = os.path.join(scratch, "store%d.json" % case)
    weights = ",".join("%s=%d" % (v, 100 // k) for v in variants)
    ok(store, "create", "exp", "--type", "user", "--variants", weights)
    ok(store, "start", "exp")
    with_goal = case % 3 != 2
    if with_goal:
        ok(store, "set-metrics", "exp", "--goal", "buy", "--guardrail", "refund:decrease")
    else:
        ok(store, "set-metrics", "exp", "--guardrail", "refund:decrease")
    path = os.path.join(scratch, "summary%d.csv" % case)
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["metric", "type", "variant", "subjects", "sum", "sum_squares"])
        writer.writerows(summary_rows(rng, variants))
    method = rng.choice(sorted(METHODS))
    engine = ["--engine", "frequentist"] + (["--sequential"] if case % 5 == 4 else [])
    args = ["results", "exp", "--summary", path, "--all-metrics", "--correction", method] + engine
    report = json.loads(ok(store, *args, "--json").stdout)
    family_role = "goal" if with_goal else "other"
    family = [(m, v) for m in report["metrics"] if m["role"] == family_role
              for v in m["variants"] if not v["control"] and v["p_value"] is not None]
    raw = [v["p_value"] for _, v in family]
    expected = multipletests(raw, alpha=0.05, method=METHODS[method])[1] if raw else []
    label = "case %d (%s, %d variants, %s)" % (case, method, k, "goal" if with_goal else "no goal")
    check(label + " tests", report.get("correction") == {"method": method, "tests": len(raw)}, report.get("correction"))
    global crossed, largest
    for (metric, variant), want in zip(family, expected):
        crossed += variant["p_value"] < 0.05 <= want
        got = variant["p_value_adjusted"]
        largest = max(largest, abs((got or 0) - want))
        check("%s %s/%s adjusted" % (label, metric["metric"], variant["name"]), got is not None and abs(got - want) <= 1e-12 * max(1, want),
              "abconsole %r, statsmodels %r" % (got, want))
        lower = metric["direction"] == "decrease"
        verdict = "inconclusive" if not (want < 0.05 and variant["lift"] != 0) else ("better" if (variant["lift"] > 0) != lower else "worse")
        check("%s %s/%s verdict" % (label, metric["metric"], variant["name"]), variant["verdict"] == verdict,
              "verdict %s, adjusted p %r, lift %r" % (variant["verdict"], want, variant["lift"]))
    outside = [v for m in report["metrics"] if m["role"] != family_role for v in m["variants"]]
    check(label + " outside the family", all(v["p_value_adjusted"] is None for v in outside),
          [(v["name"], v["p_value_adjusted"]) for v in outside])
    text = ok(store, *args).stdout
    name = {"holm": "Holm", "bh": "Benjamini–Hochberg"}[method]
    check(label + " text", "correction: p-values adjusted by %s over %d test%s" % (name, len(raw), "" if len(raw) == 1 else "s") in text, text)
    bayesian = run(store, "results", "exp", "--summary", path, "--correction", method)
    check(label + " bayesian refused", bayesian.returncode == 64 and "Bayesian engine" in bayesian.stderr, bayesian.stderr)


def main():
    rng = random.Random(29)
    with tempfile.TemporaryDirectory() as scratch:
        for case in range(CASES):
            try:
                one_case(case, rng, scratch)
            except Exception as error:  # a crash of one case is a failure, the others still run
                failed.append("case %d: %s" % (case, error))
    check("some comparisons change verdict under the correction", crossed > 0, crossed)
    for line in failed[:20]:
        print("  FAILED " + line)
    print("correction: largest difference from statsmodels %.1e; %d comparisons significant before the correction and not after"
          % (largest, crossed))
    print("correction: %d passed, %d failed" % (passed, len(failed)))
    sys.exit(1 if failed else 0)


main()
