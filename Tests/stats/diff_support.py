"""What the differential tests of ExperimentStats share (gbstats_diff.py, cuped_diff.py, power_diff.py).

Running the Swift side (`abconsole-statsdiff`, one JSON case a line in, one JSON answer a line out),
gbstats' answer for a case mapped to SPEC §8 (lift over |μC|), the tolerance comparison and the report.
"""
import json
import math
import subprocess
import sys
import warnings

TOLERANCE = 1e-6
ENGINES = ("bayesian", "frequentist", "sequential")


def fail(label, message):
    """Says why the differential test LABEL cannot run and exits 1."""
    print(f"{label} differential: FAILED, {message}", file=sys.stderr)
    sys.exit(1)


def load_gbstats(label):
    """gbstats 0.8's tests and statistics; exits 1 when it is missing or another version."""
    try:
        import importlib.metadata

        version = importlib.metadata.version("gbstats")
        from gbstats.bayesian.tests import EffectBayesianABTest
        from gbstats.frequentist.tests import SequentialTwoSidedTTest, TwoSidedTTest
        from gbstats.models.statistics import ProportionStatistic, SampleMeanStatistic
    except Exception as error:  # noqa: BLE001 - any import failure must fail the test
        fail(label, f'gbstats 0.8 is not importable ({error}); install it with: pip install "gbstats==0.8.*"')
    if not version.startswith("0.8."):
        fail(label, f"gbstats {version} installed; this test is against 0.8.x")
    return EffectBayesianABTest, TwoSidedTTest, SequentialTwoSidedTTest, ProportionStatistic, SampleMeanStatistic


def run_statsdiff(binary, cases, label):
    """The Swift answers to `cases`, by case id; exits 1 when the tool cannot run or fails."""
    stdin = "".join(json.dumps(case) + "\n" for case in cases)
    try:
        run = subprocess.run([binary], input=stdin, capture_output=True, text=True)
    except OSError as error:
        fail(label, f"cannot run {binary} ({error}); build it with swift build")
    if run.returncode != 0:
        fail(label, f"{binary} exited {run.returncode}: {run.stderr.strip()}")
    return {row["id"]: row for row in (json.loads(line) for line in run.stdout.splitlines() if line)}


def gbstats_answer(case, statistic):
    """gbstats' answer to `case` (its `engine`, `control`, `treatment`), each group made a gbstats
    statistic by `statistic`: {"none": why} or lift, interval, chance to win and p-value.

    SPEC §8 divides the lift by |μC|, gbstats by μC: for a negative control mean gbstats' lift and
    interval are negated (ends swapped) and its chance to win becomes 1 - p; p-values are unchanged.
    """
    from gbstats.bayesian.tests import EffectBayesianABTest
    from gbstats.frequentist.tests import SequentialTwoSidedTTest, TwoSidedTTest

    test = {"bayesian": EffectBayesianABTest, "frequentist": TwoSidedTTest, "sequential": SequentialTwoSidedTTest}[case["engine"]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = test(statistic(case["control"]), statistic(case["treatment"])).compute_result()
    if result.error_message:
        return {"none": result.error_message}
    lift, lower, upper = result.expected, result.ci[0], result.ci[1]
    ctw = getattr(result, "chance_to_win", None) if case["engine"] == "bayesian" else None
    p = getattr(result, "p_value", None) if case["engine"] != "bayesian" else None
    control = case["control"]
    if control["sum"] / control["n"] < 0:
        lift, lower, upper = -lift, -upper, -lower
        ctw = None if ctw is None else 1 - ctw
    return {"lift": lift, "lower": lower, "upper": upper, "chance_to_win": ctw, "p_value": p}


def close(swift, expected, relative):
    """Whether `swift` is within TOLERANCE of `expected` (relative above 1 when `relative`, else absolute)."""
    if expected is None or swift is None:
        return expected is None and swift is None
    if not (math.isfinite(swift) and math.isfinite(expected)):
        return False
    scale = max(1.0, abs(expected)) if relative else 1.0
    return abs(swift - expected) <= TOLERANCE * scale


WORST = {}  # field -> largest scaled difference seen


def compare(case, expected, swift):
    """A list of mismatch descriptions (empty when the case passes)."""
    if swift.get("error"):
        return [f"swift rejected the input: {swift['error']}"]
    if "none" in expected:
        if swift.get("lift") is not None or not swift.get("note"):
            return [f"gbstats gives no estimate ({expected['none']}), swift gives lift {swift.get('lift')}"]
        return []
    if swift.get("lift") is None:
        return [f"swift gives no estimate ({swift.get('note')}), gbstats gives lift {expected['lift']}"]
    problems = []
    for field, relative in (("lift", True), ("lower", True), ("upper", True), ("chance_to_win", False), ("p_value", False)):
        got, want = swift.get(field), expected[field]
        if got is not None and want is not None and math.isfinite(got) and math.isfinite(want):
            scaled = abs(got - want) / (max(1.0, abs(want)) if relative else 1.0)
            WORST[field] = max(WORST.get(field, 0.0), scaled)
        if not close(got, want, relative):
            problems.append(f"{field}: swift {swift.get(field)!r} vs gbstats {expected[field]!r}")
    return problems


def report(label, cases, expected, swift, shown, describe):
    """Compares every case, prints the first `shown` mismatches (the case as `describe(case)` says),
    a tally by engine, kind and outcome, the largest differences and `LABEL differential: N passed,
    M failed`; exits 1 on any failure."""
    passed = failed = 0
    tally = {}
    for case in cases:
        key = (case["engine"], case["kind"], "none" if "none" in expected[case["id"]] else "estimate")
        tally[key] = tally.get(key, 0) + 1
        problems = compare(case, expected[case["id"]], swift.get(case["id"], {"error": "no output"}))
        if problems:
            failed += 1
            if failed <= shown:
                print(f"case {case['id']} {describe(case)}:\n  " + "\n  ".join(problems), file=sys.stderr)
        else:
            passed += 1
    for key in sorted(tally):
        print(f"  {key[0]:<11} {key[1]:<10} {key[2]:<8} {tally[key]}")
    print("  largest difference (scaled as compared): " + ", ".join(f"{k} {v:.1e}" for k, v in sorted(WORST.items())))
    print(f"{label} differential: {passed} passed, {failed} failed")
    sys.exit(0 if failed == 0 and passed == len(cases) else 1)
