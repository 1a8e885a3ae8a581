#!/usr/bin/env python3
"""Differential test of ExperimentStats against GrowthBook's gbstats 0.8 (SPEC §8).

Generates random sufficient statistics with a fixed seed (both metric kinds, edge cases included),
runs gbstats' default tests (EffectBayesianABTest with its flat prior, TwoSidedTTest,
SequentialTwoSidedTTest with tuning 5000) and the Swift tool `abconsole-statsdiff`, and compares.

Tolerance 1e-6: lift and interval ends |swift - gbstats| <= 1e-6 * max(1, |gbstats|) (absolute for
values up to 1, relative above); chance to win and p-values absolute 1e-6 (they are probabilities,
and gbstats' p-value is 2*(1 - cdf), itself only good to about 1e-16 absolute). A case where
gbstats gives no estimate (its error_message) must give none in Swift too, and vice versa.

SPEC §8 decides where gbstats differs: lift is (muT - muC)/|muC|, while gbstats divides by the signed
control mean. For a negative control mean the gbstats numbers are therefore mapped before comparing:
lift and interval negated (ends swapped), chance to win 1 - p, p-values unchanged.

Fails (exit 1) when gbstats is not importable or not 0.8.x, or on any mismatch. Prints
"gbstats differential: N passed, M failed".

    python3 Tests/stats/gbstats_diff.py --bin .build/debug/abconsole-statsdiff [--cases 1400]

`--write-fixture` also writes Tests/ExperimentStatsTests/GbstatsFixture.swift: the first 40 cases per
engine with gbstats' answers, which `swift test` checks without Python (GbstatsFixtureTests).
"""
import argparse
import json
import math
import os
import random
import sys

sys.path.insert(0, os.path.dirname(__file__))
from diff_support import ENGINES, compare, gbstats_answer, load_gbstats, report, run_statsdiff  # noqa: E402


def log_uniform_int(rng, lo, hi):
    return int(round(math.exp(rng.uniform(math.log(lo), math.log(hi)))))


def proportion_group(rng, n, p):
    # Normal approximation to a binomial draw (exact draws are slow for n ~ 1e7), clamped.
    mean = n * p
    sd = math.sqrt(max(n * p * (1 - p), 0))
    conversions = int(round(rng.gauss(mean, sd))) if n > 0 else 0
    return {"n": n, "sum": float(min(max(conversions, 0), n)), "sum_squares": float(min(max(conversions, 0), n))}


def mean_group(rng, n, mu, sd):
    if n == 0:
        return {"n": 0, "sum": 0.0, "sum_squares": 0.0}
    sample_mean = rng.gauss(mu, sd / math.sqrt(n))
    if n == 1:
        value = sample_mean
        return {"n": 1, "sum": value, "sum_squares": value * value}
    s2 = sd * sd * rng.gammavariate((n - 1) / 2, 2) / (n - 1)  # sd^2 * chi2(n-1)/(n-1)
    total = n * sample_mean
    return {"n": n, "sum": total, "sum_squares": (n - 1) * s2 + total * total / n}


def make_cases(count, seed):
    """`count` cases per engine, alternating proportion and mean, with a share of edge cases."""
    rng = random.Random(seed)
    cases = []
    next_id = 0
    for engine in ENGINES:
        for i in range(count):
            kind = "proportion" if i % 2 == 0 else "mean"
            edge = rng.random()
            n_c = log_uniform_int(rng, 2 if kind == "mean" else 20, 10_000_000)
            n_t = log_uniform_int(rng, 2, 10_000_000) if rng.random() < 0.7 else max(2, int(n_c * rng.uniform(0.8, 1.2)))
            if edge < 0.03:
                n_c = rng.choice([0, 1])
            elif edge < 0.06:
                n_t = rng.choice([0, 1])
            if kind == "proportion":
                p_c = math.exp(rng.uniform(math.log(1e-3), math.log(0.999)))
                if rng.random() < 0.3:
                    p_c = rng.uniform(0.01, 0.99)
                p_t = min(max(p_c * (1 + rng.gauss(0, 0.2 if rng.random() < 0.8 else 1.0)), 0), 1)
                control, treatment = proportion_group(rng, n_c, p_c), proportion_group(rng, n_t, p_t)
                if 0.06 <= edge < 0.09:  # none or all converted
                    which = control if rng.random() < 0.5 else treatment
                    which["sum"] = which["sum_squares"] = float(rng.choice([0, which["n"]]))
                if 0.09 <= edge < 0.10:  # a tiny sample with a round rate
                    control = {"n": 4, "sum": 2.0, "sum_squares": 2.0}
            else:
                mu = math.exp(rng.uniform(math.log(0.01), math.log(1000)))
                if rng.random() < 0.12:
                    mu = -mu  # refunds and the like: a negative control mean
                sd = abs(mu) * math.exp(rng.uniform(math.log(0.05), math.log(20)))
                mu_t = mu * (1 + rng.gauss(0, 0.1 if rng.random() < 0.8 else 0.8))
                control, treatment = mean_group(rng, n_c, mu, sd), mean_group(rng, n_t, mu_t, sd * rng.uniform(0.5, 2))
                if 0.06 <= edge < 0.08 and control["n"] > 0:  # control mean exactly 0
                    control["sum"] = 0.0
                    control["sum_squares"] = max(control["sum_squares"], 1.0)
                if 0.08 <= edge < 0.10:  # every subject has the same value: zero variance
                    which = control if rng.random() < 0.5 else treatment
                    value = round(rng.uniform(1, 10))
                    which["sum"] = which["n"] * value
                    which["sum_squares"] = which["n"] * value * value
            cases.append({"id": next_id, "kind": kind, "engine": engine, "control": control, "treatment": treatment})
            next_id += 1
    return cases


def gbstats_result(gb, case):
    _, _, _, ProportionStatistic, SampleMeanStatistic = gb

    def stat(group):
        if case["kind"] == "proportion":
            return ProportionStatistic(n=group["n"], sum=group["sum"])
        return SampleMeanStatistic(n=group["n"], sum=group["sum"], sum_squares=group["sum_squares"])

    return gbstats_answer(case, stat)


def write_fixture(cases, expected):
    """The first 40 cases of each engine, with gbstats' (SPEC-mapped) answers, as Swift literals."""
    import importlib.metadata

    def num(v):
        return "nil" if v is None else repr(float(v))

    lines = [
        f"// Generated by Tests/stats/gbstats_diff.py --write-fixture from gbstats {importlib.metadata.version('gbstats')}",
        "// (seed 20261123). Do not edit by hand. Lift over |μC| as SPEC §8 says (see the script).",
        "@testable import ExperimentStats",
        "",
        "/// gbstats' answers for a sample of the differential cases, checked by `swift test` without Python.",
        "enum GbstatsFixture {",
        "    struct Row {",
        "        let kind: MetricKind, engine: StatsEngine",
        "        let control: (n: Int, sum: Double, sumSquares: Double), treatment: (n: Int, sum: Double, sumSquares: Double)",
        "        let lift: Double?, lower: Double?, upper: Double?, chanceToWin: Double?, pValue: Double?",
        "    }",
        "",
        "    static let rows: [Row] = [",
    ]
    engines = {"bayesian": ".bayesian", "frequentist": ".frequentist(sequential: false)", "sequential": ".frequentist(sequential: true)"}
    for engine in ENGINES:
        for case in [c for c in cases if c["engine"] == engine][:40]:
            e = expected[case["id"]]
            c, t = case["control"], case["treatment"]
            lines.append(
                f"        Row(kind: .{case['kind']}, engine: {engines[engine]}, "
                f"control: ({c['n']}, {num(c['sum'])}, {num(c['sum_squares'])}), treatment: ({t['n']}, {num(t['sum'])}, {num(t['sum_squares'])}), "
                f"lift: {num(e.get('lift'))}, lower: {num(e.get('lower'))}, upper: {num(e.get('upper'))}, "
                f"chanceToWin: {num(e.get('chance_to_win'))}, pValue: {num(e.get('p_value'))}),"
            )
    lines += ["    ]", "}", ""]
    path = os.path.join(os.path.dirname(__file__), "..", "ExperimentStatsTests", "GbstatsFixture.swift")
    with open(path, "w") as f:
        f.write("\n".join(lines))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=".build/debug/abconsole-statsdiff")
    parser.add_argument("--cases", type=int, default=1400, help="cases per engine (default 1400)")
    parser.add_argument("--seed", type=int, default=20261123)
    parser.add_argument("--write-fixture", action="store_true", help="also write the Swift fixture of gbstats answers")
    args = parser.parse_args()

    gb = load_gbstats("gbstats")
    cases = make_cases(args.cases, args.seed)
    expected = {case["id"]: gbstats_result(gb, case) for case in cases}
    if args.write_fixture:
        write_fixture(cases, expected)
    swift = run_statsdiff(args.bin, cases, "gbstats")
    report("gbstats", cases, expected, swift, shown=20, describe=json.dumps)

if __name__ == "__main__":
    main()
