#!/usr/bin/env python3
"""Differential test of CUPED in ExperimentStats against gbstats 0.8's RegressionAdjustedStatistic (SPEC §12).

Random per-subject data (a pre-period covariate X correlated with the outcome Y at a random ρ, both
metric kinds: 0/1 values for proportions, real values for means, some negative control means),
aggregated into the sufficient statistics of the summary CSV (n, ΣY, ΣY², ΣX, ΣX², ΣXY), run through
gbstats' EffectBayesianABTest, TwoSidedTTest and SequentialTwoSidedTTest with RegressionAdjustedStatistic
and through `abconsole-statsdiff` (`"op":"cuped"`). Tolerance 1e-6 as in gbstats_diff.py (lift and
interval ends relative above 1, probabilities absolute); lift over |μC| as SPEC §8 says, so gbstats'
numbers are mapped for a negative control mean exactly as gbstats_diff.py does.

    python3 Tests/stats/cuped_diff.py --bin .build/debug/abconsole-statsdiff [--cases 1000]

Prints "cuped differential: N passed, M failed"; exit 1 on any failure.
"""
import argparse
import json
import math
import random
import subprocess
import sys
import warnings

sys.path.insert(0, __import__("os").path.dirname(__file__))
import gbstats_diff  # noqa: E402  (the same loader, tolerance and comparison)

ENGINES = ("bayesian", "frequentist", "sequential")


def group(rng, n, kind, mu, sd, rho, shift):
    total = {"n": n, "sum": 0.0, "sum_squares": 0.0, "covariate_sum": 0.0, "covariate_sum_squares": 0.0, "cross_sum": 0.0}
    for _ in range(n):
        a, b = rng.gauss(0, 1), rng.gauss(0, 1)
        x_latent, y_latent = a, rho * a + math.sqrt(1 - rho * rho) * b
        if kind == "proportion":
            x = 1.0 if x_latent < mu else 0.0
            y = 1.0 if y_latent < mu + shift else 0.0
        else:
            x = mu + sd * x_latent
            y = mu * (1 + shift) + sd * y_latent
        total["sum"] += y
        total["sum_squares"] += y * y
        total["covariate_sum"] += x
        total["covariate_sum_squares"] += x * x
        total["cross_sum"] += x * y
    return total


def make_cases(count, seed):
    rng = random.Random(seed)
    cases = []
    for engine in ENGINES:
        for i in range(count):
            kind = "proportion" if i % 2 == 0 else "mean"
            n_c = int(math.exp(rng.uniform(math.log(5), math.log(1500))))
            n_t = max(2, int(n_c * rng.uniform(0.5, 1.5)))
            rho = rng.uniform(-0.95, 0.95) if rng.random() < 0.9 else 0.0
            if kind == "proportion":
                mu, sd, shift = rng.uniform(-1.5, 0.5), 0, rng.gauss(0, 0.15)
            else:
                mu = math.exp(rng.uniform(math.log(0.5), math.log(200))) * (-1 if rng.random() < 0.1 else 1)
                sd, shift = abs(mu) * rng.uniform(0.2, 3), rng.gauss(0, 0.1)
            control = group(rng, n_c, kind, mu, sd, rho, 0)
            treatment = group(rng, n_t, kind, mu, sd, rho, shift)
            if rng.random() < 0.03:  # no pre-period data at all: theta 0, the plain comparison
                for g in (control, treatment):
                    g["covariate_sum"] = g["covariate_sum_squares"] = g["cross_sum"] = 0.0
            cases.append({"op": "cuped", "id": len(cases), "kind": kind, "engine": engine, "control": control, "treatment": treatment})
    return cases


def gbstats_result(case):
    from gbstats.bayesian.tests import EffectBayesianABTest
    from gbstats.frequentist.tests import SequentialTwoSidedTTest, TwoSidedTTest
    from gbstats.models.statistics import ProportionStatistic, RegressionAdjustedStatistic, SampleMeanStatistic

    def stat(g):
        if case["kind"] == "proportion":
            post, pre = ProportionStatistic(n=g["n"], sum=g["sum"]), ProportionStatistic(n=g["n"], sum=g["covariate_sum"])
        else:
            post = SampleMeanStatistic(n=g["n"], sum=g["sum"], sum_squares=g["sum_squares"])
            pre = SampleMeanStatistic(n=g["n"], sum=g["covariate_sum"], sum_squares=g["covariate_sum_squares"])
        return RegressionAdjustedStatistic(n=g["n"], post_statistic=post, pre_statistic=pre,
                                           post_pre_sum_of_products=g["cross_sum"], theta=0)

    test = {"bayesian": EffectBayesianABTest, "frequentist": TwoSidedTTest, "sequential": SequentialTwoSidedTTest}[case["engine"]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = test(stat(case["control"]), stat(case["treatment"])).compute_result()
    if result.error_message:
        return {"none": result.error_message}
    lift, lower, upper = result.expected, result.ci[0], result.ci[1]
    ctw = getattr(result, "chance_to_win", None) if case["engine"] == "bayesian" else None
    p = getattr(result, "p_value", None) if case["engine"] != "bayesian" else None
    if case["control"]["sum"] / case["control"]["n"] < 0:
        lift, lower, upper = -lift, -upper, -lower
        ctw = None if ctw is None else 1 - ctw
    return {"lift": lift, "lower": lower, "upper": upper, "chance_to_win": ctw, "p_value": p}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=".build/debug/abconsole-statsdiff")
    parser.add_argument("--cases", type=int, default=1000, help="cases per engine (default 1000)")
    parser.add_argument("--seed", type=int, default=20261126)
    args = parser.parse_args()
    gbstats_diff.load_gbstats()
    cases = make_cases(args.cases, args.seed)
    expected = {case["id"]: gbstats_result(case) for case in cases}
    run = subprocess.run([args.bin], input="".join(json.dumps(c) + "\n" for c in cases), capture_output=True, text=True)
    if run.returncode != 0:
        print(f"cuped differential: FAILED, {args.bin} exited {run.returncode}: {run.stderr.strip()}", file=sys.stderr)
        sys.exit(1)
    swift = {row["id"]: row for row in map(json.loads, run.stdout.splitlines())}
    passed = failed = 0
    tally = {}
    for case in cases:
        key = (case["engine"], case["kind"], "none" if "none" in expected[case["id"]] else "estimate")
        tally[key] = tally.get(key, 0) + 1
        problems = gbstats_diff.compare(case, expected[case["id"]], swift.get(case["id"], {"error": "no output"}))
        if problems:
            failed += 1
            if failed <= 10:
                print(f"case {case['id']} ({case['engine']}, {case['kind']}):\n  " + "\n  ".join(problems), file=sys.stderr)
        else:
            passed += 1
    for key in sorted(tally):
        print(f"  {key[0]:<11} {key[1]:<10} {key[2]:<8} {tally[key]}")
    print("  largest difference (scaled as compared): " + ", ".join(f"{k} {v:.1e}" for k, v in sorted(gbstats_diff.WORST.items())))
    print(f"cuped differential: {passed} passed, {failed} failed")
    sys.exit(0 if failed == 0 and passed == len(cases) else 1)


if __name__ == "__main__":
    main()
