#!/usr/bin/env bash
# Runs the four libFuzzer targets (built by build.sh) for SECONDS each (default 600), two at a time,
# seeded from Tests/corpus: the store loader, the whitelist CSV reader, and the CLI's own inputs —
# payload JSON and subject ids as --subjects lines (bom.dict puts BOMs and invisible characters
# anywhere). A crashing input is copied to Tests/corpus/fuzz-found/ and the run fails.
# Prints executions and duration per target and appends them to .build-fuzz/runs.log.
#   scripts/fuzz/run.sh [SECONDS]
set -uo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-600}
out=.build-fuzz
for binary in store-loader-fuzz whitelist-csv-fuzz payload-fuzz subjects-fuzz; do
  [ -x "$out/$binary" ] || { scripts/fuzz/build.sh; break; }
done
mkdir -p "$out/work-store" "$out/work-csv" "$out/work-payload" "$out/work-subjects" "$out/artifacts" Tests/corpus/fuzz-found
# Seeds: the committed corpus (big generated cases are left out: libFuzzer caps inputs anyway).
cp -n Tests/corpus/base.json Tests/corpus/stores/*.json "$out/work-store/" 2>/dev/null
rm -f "$out"/work-store/*.gen.json
cp -n Tests/corpus/csv/*.csv "$out/work-csv/" 2>/dev/null
cp -n Tests/corpus/fuzz-found/store-* "$out/work-store/" 2>/dev/null
cp -n Tests/corpus/fuzz-found/csv-* "$out/work-csv/" 2>/dev/null
# Payload seeds: every payload and weight of the corpus stores' base, plus numbers and nesting at the edges.
python3 - "$out/work-payload" "$out/work-subjects" <<'PY'
import json, os, sys
payloads, subjects = sys.argv[1], sys.argv[2]
seeds = ['{"color":"#0a84ff"}', '[1,2.5,-0.0,1e21,12345678901234567890,9007199254740993]', '"\\ud83d\\ude00"', "[" * 64 + "]" * 64,
         "[" * 65 + "]" * 65, '[-1e-400]', '[1e400]', '{"a":{"b":[null,true,false,"x"]}}', '\ufeff{"a":1}', '1.50e-3']
for index, seed in enumerate(seeds):
    open(os.path.join(payloads, f"seed-{index}"), "w").write(seed)
lines = ["user-1\nuser-42\n\ndevice-7f3a\n", "\ufeffuser-1\r\nuser-2\n", "a" + "\u0301" * 300 + "\n", "qa\u200b1\nu\u202eevil\n", "x" * 256 + "\n" + "y" * 257]
for index, seed in enumerate(lines):
    open(os.path.join(subjects, f"seed-{index}"), "w").write(seed)
PY
cp -n Tests/corpus/fuzz-found/payload-* "$out/work-payload/" 2>/dev/null
cp -n Tests/corpus/fuzz-found/subjects-* "$out/work-subjects/" 2>/dev/null
run() { # name binary corpus max_len [extra libFuzzer flags]
  date +%s >"$out/$1.start"
  "$out/$2" "$out/$3" -max_total_time="$seconds" -max_len="$4" -timeout=20 -rss_limit_mb=4096 ${5:-} \
    -artifact_prefix="$out/artifacts/$1-" -print_final_stats=1 >"$out/$1.log" 2>&1
  echo $? >"$out/$1.rc"
  date +%s >"$out/$1.end"
}
run store store-loader-fuzz work-store 65536 &
run csv whitelist-csv-fuzz work-csv 16384 -dict=scripts/fuzz/bom.dict &
wait
run payload payload-fuzz work-payload 16384 &
run subjects subjects-fuzz work-subjects 16384 -dict=scripts/fuzz/bom.dict &
wait
status=0
for name in store csv payload subjects; do
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$out/$name.log" | grep -o '[0-9]*$')
  took=$(( $(cat "$out/$name.end") - $(cat "$out/$name.start") ))
  echo "fuzz: $name: ${runs:-?} executions in $took s, exit $(cat "$out/$name.rc") ($(date -u +%FT%TZ))" | tee -a "$out/runs.log"
  for artifact in "$out"/artifacts/"$name"-*; do
    [ -e "$artifact" ] || continue
    kept="Tests/corpus/fuzz-found/$name-$(basename "$artifact" | sed "s/^$name-//")"
    mv "$artifact" "$kept"
    echo "fuzz: $name found $(basename "$artifact"), kept as $kept"
    grep -m3 -E 'Fatal error|runtime failure|ERROR: ' "$out/$name.log" >&2
    status=1
  done
done
exit $status
