#!/usr/bin/env python3
"""Power and days-to-power of ExperimentStats against independent references (SPEC §12).

1. Power: on random cases (both metric kinds' inputs: a control mean and variances, group sizes,
   effects), the Swift `Power.power` against statsmodels' `normal_power` (two-sided z-test, alpha
   0.05) applied to the standardized effect m/s, with s the delta-method standard error of SPEC §8
   computed here independently. Tolerance 1e-6 absolute.
2. Days to power: `Power.daysRemaining` against a direct search in Python over the same formula.
3. Simulation (`--simulate N`): proportion experiments drawn at random; for the day the plan predicts
   power P, N experiments of that size are simulated (binomial draws), each tested with the SPEC §8
   two-sided z-test on the relative lift; the share of significant results must be within 3 points of
   the predicted power. Default N = 400 (fast: 3 points plus a sampling allowance of 2·σ of the share);
   the documented long run is `--simulate 2000` (3 points, no allowance).

    python3 Tests/stats/power_diff.py --bin .build/debug/abconsole-statsdiff [--cases 1000] [--simulate 2000]

Prints "power differential: N passed, M failed" and exits 1 on any failure.
"""
import argparse
import math
import os
import random
import sys

sys.path.insert(0, os.path.dirname(__file__))
from diff_support import TOLERANCE, run_statsdiff  # noqa: E402

Z = 1.959963984540054


def load_reference():
    try:
        from statsmodels.stats.power import normal_power
        from scipy.stats import norm
    except Exception as error:  # noqa: BLE001
        print(f"power differential: FAILED, statsmodels/scipy not importable ({error}); pip install statsmodels", file=sys.stderr)
        sys.exit(1)
    return normal_power, norm


def delta_se(mde, mean_c, var_c, var_t, n_c, n_t):
    mean_t = mean_c * (1 + mde)
    return math.sqrt(var_t / (n_t * mean_c ** 2) + var_c * mean_t ** 2 / (n_c * mean_c ** 4))


def random_case(rng, index):
    kind = rng.choice(["proportion", "mean"])
    mde = math.exp(rng.uniform(math.log(0.005), math.log(2)))
    n_c = float(int(math.exp(rng.uniform(math.log(10), math.log(5e6)))))
    n_t = float(max(2, int(n_c * rng.uniform(0.3, 3))))
    if kind == "proportion":
        mean_c = rng.uniform(0.001, 0.6)
        rate_t = min(0.999, mean_c * (1 + mde))
        var_c, var_t = mean_c * (1 - mean_c), rate_t * (1 - rate_t)
    else:
        mean_c = rng.choice([-1, 1]) * math.exp(rng.uniform(math.log(0.1), math.log(500)))
        var_c = (abs(mean_c) * rng.uniform(0.2, 5)) ** 2
        var_t = var_c * rng.uniform(0.5, 2)
    return {"op": "power", "id": index, "mde": mde, "mean_c": mean_c, "var_c": var_c, "var_t": var_t,
            "n_c": n_c, "n_t": n_t, "target": rng.choice([0.5, 0.8, 0.9, 0.95]),
            "per_day_c": n_c / rng.uniform(1, 60), "per_day_t": n_t / rng.uniform(1, 60)}


def phi(x):
    return 0.5 * math.erfc(-x / math.sqrt(2))


def reference_days(case):
    """The first whole day whose power reaches the target, by a direct search (math.erfc for speed)."""
    for day in range(0, 366):
        se = delta_se(case["mde"], case["mean_c"], case["var_c"], case["var_t"],
                      case["n_c"] + day * case["per_day_c"], case["n_t"] + day * case["per_day_t"])
        ratio = abs(case["mde"]) / se
        if phi(ratio - Z) + phi(-ratio - Z) >= case["target"]:
            return day
    return None


def simulate(rng, runs, binary, norm):
    """Share of significant z-tests among `runs` simulated experiments at the predicted day, against the predicted power."""
    failures = 0
    for scenario in range(3):
        baseline = rng.uniform(0.03, 0.3)
        mde = rng.uniform(0.05, 0.2)
        per_day = rng.uniform(200, 2000)
        rate_t = baseline * (1 + mde)
        case = {"op": "power", "id": scenario, "mde": mde, "mean_c": baseline, "var_c": baseline * (1 - baseline),
                "var_t": rate_t * (1 - rate_t), "n_c": per_day, "n_t": per_day, "target": 0.8,
                "per_day_c": per_day, "per_day_t": per_day}
        days = run_statsdiff(binary, [case], "power")[scenario].get("days_remaining")
        n = int(per_day * (1 + days))
        predicted = run_statsdiff(binary, [dict(case, n_c=float(n), n_t=float(n), target=None)], "power")[scenario]["power"]
        significant = 0
        for _ in range(runs):
            c = binomial(rng, n, baseline)
            t = binomial(rng, n, rate_t)
            p_c, p_t = c / n, t / n
            if p_c == 0:
                continue
            lift = (p_t - p_c) / p_c
            var = p_t * (1 - p_t) / (n * p_c ** 2) + p_c * (1 - p_c) * p_t ** 2 / (n * p_c ** 4)
            if var > 0 and abs(lift) / math.sqrt(var) > Z:
                significant += 1
        share = significant / runs
        allowance = 0.03 + (2 * math.sqrt(predicted * (1 - predicted) / runs) if runs < 2000 else 0)
        ok = abs(share - predicted) <= allowance
        failures += 0 if ok else 1
        print(f"  simulation {scenario}: baseline {baseline:.3f}, effect {mde:.3f}, {per_day:.0f}/day/variant: "
              f"day {days} predicted power {predicted:.4f}, simulated {share:.4f} over {runs} runs "
              f"({'ok' if ok else 'MISMATCH'}, allowance {allowance:.3f})")
    return failures


def binomial(rng, n, p):
    # Normal approximation with continuity for large n; exact for small.
    if n * p * (1 - p) < 50:
        return sum(1 for _ in range(n) if rng.random() < p)
    return max(0, min(n, int(round(rng.gauss(n * p, math.sqrt(n * p * (1 - p)))))))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--simulate", type=int, default=400)
    parser.add_argument("--seed", type=int, default=20261126)
    args = parser.parse_args()
    normal_power, norm = load_reference()
    rng = random.Random(args.seed)
    cases = [random_case(rng, index) for index in range(args.cases)]
    results = run_statsdiff(args.bin, cases, "power")
    passed = failed = 0
    worst = 0.0
    for case in cases:
        got = results[case["id"]]
        se = delta_se(case["mde"], case["mean_c"], case["var_c"], case["var_t"], case["n_c"], case["n_t"])
        expected = normal_power(abs(case["mde"]) / se, 1, 0.05)
        error = abs(got["power"] - expected)
        worst = max(worst, error)
        days = reference_days(case)
        if error <= TOLERANCE and got.get("days_remaining") == days:
            passed += 1
        else:
            failed += 1
            if failed <= 5:
                print(f"  case {case['id']}: power {got['power']} vs {expected}, days {got['days_remaining']} vs {days}")
    print(f"  power: worst |swift - statsmodels| = {worst:.2e} over {args.cases} cases; days_remaining equal on {passed}")
    if args.simulate > 0:
        failed += simulate(rng, args.simulate, args.bin, norm)
    print(f"power differential: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
