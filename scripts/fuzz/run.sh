#!/usr/bin/env bash
# Runs both libFuzzer targets (built by build.sh) for SECONDS each (default 600), at the same time,
# seeded from Tests/corpus. A crashing input is copied to Tests/corpus/fuzz-found/ and the run fails.
# Prints executions and duration per target and appends them to .build-fuzz/runs.log.
#   scripts/fuzz/run.sh [SECONDS]
set -uo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-600}
out=.build-fuzz
[ -x "$out/store-loader-fuzz" ] && [ -x "$out/whitelist-csv-fuzz" ] || scripts/fuzz/build.sh
mkdir -p "$out/work-store" "$out/work-csv" "$out/artifacts" Tests/corpus/fuzz-found
# Seeds: the committed corpus (big generated cases are left out: libFuzzer caps inputs anyway).
cp -n Tests/corpus/base.json Tests/corpus/stores/*.json "$out/work-store/" 2>/dev/null
rm -f "$out"/work-store/*.gen.json
cp -n Tests/corpus/csv/*.csv "$out/work-csv/" 2>/dev/null
cp -n Tests/corpus/fuzz-found/store-* "$out/work-store/" 2>/dev/null
cp -n Tests/corpus/fuzz-found/csv-* "$out/work-csv/" 2>/dev/null
run() { # name binary corpus max_len
  date +%s >"$out/$1.start"
  "$out/$2" "$out/$3" -max_total_time="$seconds" -max_len="$4" -timeout=20 -rss_limit_mb=4096 \
    -artifact_prefix="$out/artifacts/$1-" -print_final_stats=1 >"$out/$1.log" 2>&1
  echo $? >"$out/$1.rc"
  date +%s >"$out/$1.end"
}
run store store-loader-fuzz work-store 65536 &
run csv whitelist-csv-fuzz work-csv 16384 &
wait
status=0
for name in store csv; do
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
