#!/usr/bin/env bash
# merge and diff against validate on a store with 1,000,000 whitelist entries (docs/git.md, Performance):
#   swift build -c release --product abconsole && bash Tests/git/merge_bench.sh "$PWD/.build/release/abconsole"
# Prints wall time and peak resident set (GNU time) of each, two runs. Not part of scripts/test.
set -euo pipefail
B=$1
D=$(mktemp -d /tmp/g18bench.XXXXXX)
cd "$D"
export ABCONSOLE_OPERATOR=bench
$B --store base.json create big --type user --variants control=50,treat=50 >/dev/null
$B --store base.json start big >/dev/null
python3 -c "
import sys
with open('w.csv','w') as f:
    for i in range(1000000): f.write(f'user-{i:07d},{\"control\" if i%2 else \"treat\"},n\n')
"
$B --store base.json whitelist import big w.csv >/dev/null
cp base.json ours.json; cp base.json theirs.json
$B --store ours.json ramp big control=80 treat=20 >/dev/null
$B --store ours.json whitelist add big extra-ours treat >/dev/null
$B --store theirs.json whitelist remove big user-0000001 >/dev/null
$B --store theirs.json whitelist add big extra-theirs control --note x >/dev/null
ls -la base.json | awk '{print "file bytes", $5}'
for i in 1 2; do
  /usr/bin/time -f "validate %e s %M KiB" $B --store base.json validate >/dev/null
  /usr/bin/time -f "merge %e s %M KiB" $B merge base.json ours.json theirs.json --out m.json >/dev/null
  /usr/bin/time -f "diff %e s %M KiB" $B diff base.json ours.json >/dev/null
done
$B --store m.json validate
rm -rf "$D"
