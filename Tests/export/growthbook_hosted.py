#!/usr/bin/env python3
"""The hosted export, fetched by GrowthBook's own Python SDK over HTTP, kept current by `export --watch`.

`abconsole export --watch --format growthbook --values payloads --out ROOT/api/features/KEY` keeps
a copy of the sample store's export where GrowthBook SDKs look for it; Tests/delivery/snapshot_server.py
serves ROOT on 127.0.0.1. The stock SDK (`GrowthBook(api_host=..., client_key=...)`, `pip install
growthbook`) loads it over HTTP and must give every subject what `abconsole assign` gives: the
variant's payload for an experiment whose variants all carry one (`app_color_scheme`), else its
name; its tracking callback's `result.key` is the variant name. Then a ramp, a store made invalid
(the export stays, one sentence says why, watching goes on), a whitelist change and SIGTERM (exit 0).

    python3 Tests/export/growthbook_hosted.py --bin .build/debug/abconsole

The last line is always `growthbook hosted: N passed, M failed`; exit 0 only when M == 0.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
SERVER = os.path.join(HERE, "..", "delivery", "snapshot_server.py")
SAMPLE = os.path.join(HERE, "..", "..", "sample-data", "experiments.json")
CLIENT_KEY = "sdk-abconsole-test"
sys.path.insert(0, HERE)
from checks import Report, wait_for  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/debug/abconsole")
    options = parser.parse_args()
    report = Report("growthbook hosted")
    try:
        from growthbook import GrowthBook
    except ImportError as error:
        report.check(False, f"the GrowthBook Python SDK is not installed ({error}); run `pip install growthbook`")
        return report.finish()
    logging.disable(logging.WARNING)
    binary = os.path.abspath(options.bin)
    environment = {k: v for k, v in os.environ.items() if not k.startswith("ABCONSOLE_")}
    environment["ABCONSOLE_OPERATOR"] = "hosted-test"
    with tempfile.TemporaryDirectory(prefix="abconsole-hosted-") as directory:
        store = os.path.join(directory, "experiments.json")
        shutil.copyfile(SAMPLE, store)
        root = os.path.join(directory, "www")
        os.makedirs(os.path.join(root, "api", "features"))
        hosted = os.path.join(root, "api", "features", CLIENT_KEY)

        def cli(*arguments: str) -> subprocess.CompletedProcess:
            return subprocess.run([binary, "--store", store, *arguments], capture_output=True, env=environment, timeout=60)

        server = subprocess.Popen([sys.executable, SERVER, root], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        watch = subprocess.Popen([binary, "--store", store, "export", "--watch", "--format", "growthbook", "--values", "payloads",
                                  "--out", hosted], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment)
        try:
            port = int(server.stdout.readline())
            api_host = f"http://127.0.0.1:{port}"
            report.check(wait_for(lambda: os.path.exists(hosted)), "export --watch wrote nothing")

            def agree(what: str) -> None:
                with open(store) as handle:
                    document = json.load(handle)
                payloads = {(e["key"], v["name"]): v.get("payload") for e in document["experiments"] for v in e["variants"]}
                all_payloads = {e["key"]: all(v.get("payload") is not None for v in e["variants"]) for e in document["experiments"]}
                keys = sorted(all_payloads)
                viewed = []
                gb = GrowthBook(api_host=api_host, client_key=CLIENT_KEY, cache_ttl=0,
                                on_experiment_viewed=lambda experiment, result, **_: viewed.append((experiment.key, result.key)))
                gb.load_features(force_refresh=True)
                with open(hosted) as handle:
                    served = json.load(handle)
                report.check(served.get("dateUpdated") == max(h["at"] for h in document["history"]),
                             lambda: f"{what}: dateUpdated {served.get('dateUpdated')!r}")
                tracked = 0
                subjects = ["emp-1001", "device-7f3a", "qa-tester-2"] + [f"user-{i * 7919}" for i in range(120)]
                for subject in subjects:
                    answer = cli("assign", *keys, "--user", subject, "--device", subject, "--json")
                    if not report.check(answer.returncode == 0, lambda: f"assign: {answer.stderr.decode()}"):
                        return
                    variants = json.loads(answer.stdout)["variants"]
                    gb.set_attributes({"id": subject, "deviceId": subject})
                    viewed.clear()
                    for key in keys:
                        want = payloads[(key, variants[key])] if all_payloads[key] else variants[key]
                        got = gb.eval_feature(key).value
                        report.check(got == want, lambda: f"{what}: {subject} {key}: GrowthBook {got!r}, assign {want!r} ({variants[key]})")
                    for key, variant in viewed:
                        report.check(variant == variants[key], lambda: f"{what}: tracking result.key {variant!r}, assign {variants[key]!r}")
                    tracked += len(viewed)
                report.check(tracked > 100, lambda: f"{what}: the tracking callback saw {tracked} experiments")
                report.check(any(all_payloads.values()) and not all(all_payloads.values()), f"{what}: the sample store mixes payloads and names")

            agree("sample store")
            before = open(hosted, "rb").read()
            ramp = cli("ramp", "purchase_button_color", "blue=10", "green=70", "orange=20")
            report.check(ramp.returncode == 0, lambda: f"ramp: {ramp.stderr.decode()}")
            report.check(wait_for(lambda: open(hosted, "rb").read() != before), "export --watch did not follow the ramp")
            agree("after a ramp")
            # An invalid store: the export stays as it was and one sentence says why.
            good = open(hosted, "rb").read()
            with open(store, "rb") as handle:
                saved = handle.read()
            with open(store + ".tmp", "wb") as handle:
                handle.write(saved.replace(b'"control": "blue"', b'"control": "nope"', 1))
            os.replace(store + ".tmp", store)
            time.sleep(1)
            report.check(open(hosted, "rb").read() == good and watch.poll() is None, "an invalid store changed the export or ended --watch")
            with open(store + ".tmp", "wb") as handle:
                handle.write(saved)
            os.replace(store + ".tmp", store)
            add = cli("whitelist", "add", "purchase_button_color", "vip-1", "orange")
            report.check(add.returncode == 0, lambda: f"whitelist add: {add.stderr.decode()}")
            report.check(wait_for(lambda: b"vip-1" in open(hosted, "rb").read()), "export --watch did not follow the whitelist")
            agree("after a whitelist change")
        finally:
            watch.send_signal(signal.SIGTERM)
            try:
                code = watch.wait(timeout=10)
            except subprocess.TimeoutExpired:
                watch.kill()
                code = None
            out, err = watch.communicate()
            server.terminate()
            server.wait(timeout=10)
        report.check(code == 0, lambda: f"export --watch after SIGTERM: exit {code}")
        errors = err.decode()
        report.check(errors.count("keeps the last good export") == 1 and "nope" in errors,
                     lambda: f"export --watch on an invalid store said {errors!r}")
        report.check(out.decode().count("exported") == 3, lambda: f"export --watch wrote {out.decode()!r}")
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
