#!/usr/bin/env python3
"""Differential test of CUPED in ExperimentStats against gbstats 0.8's RegressionAdjustedStatistic (SPEC §12).

Random per-subject data (a pre-period covariate X correlated with the outcome Y at a random ρ, both
metric kinds: 0/1 values for proportions, real values for means, some negative control means),
aggregated into the sufficient statistics of the summary CSV (n, ΣY, ΣY², ΣX, ΣX², ΣXY), run through
gbstats' EffectBayesianABTest, TwoSidedTTest and SequentialTwoSidedTTest with RegressionAdjustedStatistic
and through `abconsole-statsdiff` (`"op":"cuped"`). Tolerance 1e-6 as in gbstats_diff.py (diff_support.py) (lift and
interval ends relative above 1, probabilities absolute); lift over |μC| as SPEC §8 says, so gbstats'
numbers are mapped for a negative control mean exactly as gbstats_diff.py does.

    python3 Tests/stats/cuped_diff.py --bin .build/debug/abconsole-statsdiff [--cases 1000]

Prints "cuped differential: N passed, M failed"; exit 1 on any failure.
"""
import argparse
import math
import os
import random
import sys

sys.path.insert(0, os.path.dirname(__file__))
from diff_support import ENGINES, gbstats_answer, load_gbstats, report, run_statsdiff  # noqa: E402


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
    from gbstats.models.statistics import ProportionStatistic, RegressionAdjustedStatistic, SampleMeanStatistic

    def stat(g):
        if case["kind"] == "proportion":
            post, pre = ProportionStatistic(n=g["n"], sum=g["sum"]), ProportionStatistic(n=g["n"], sum=g["covariate_sum"])
        else:
            post = SampleMeanStatistic(n=g["n"], sum=g["sum"], sum_squares=g["sum_squares"])
            pre = SampleMeanStatistic(n=g["n"], sum=g["covariate_sum"], sum_squares=g["covariate_sum_squares"])
        return RegressionAdjustedStatistic(n=g["n"], post_statistic=post, pre_statistic=pre,
                                           post_pre_sum_of_products=g["cross_sum"], theta=0)

    return gbstats_answer(case, stat)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=".build/debug/abconsole-statsdiff")
    parser.add_argument("--cases", type=int, default=1000, help="cases per engine (default 1000)")
    parser.add_argument("--seed", type=int, default=20261126)
    args = parser.parse_args()
    load_gbstats("cuped")
    cases = make_cases(args.cases, args.seed)
    expected = {case["id"]: gbstats_result(case) for case in cases}
    swift = run_statsdiff(args.bin, cases, "cuped")
    report("cuped", cases, expected, swift, shown=10, describe=lambda case: f"({case['engine']}, {case['kind']})")

if __name__ == "__main__":
    main()
