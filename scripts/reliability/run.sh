#!/usr/bin/env bash
# The reliability harnesses against the real binary (release build), with their counts.
#   scripts/reliability/run.sh fast   crash 20 kills, 4 operators × 50 mutations, the corpus without
#                                     the 50 MB cases, hostile logs and snapshots, terminal safety,
#                                     hostile environments (part of scripts/test)
#   scripts/reliability/run.sh full   crash 200 kills, 4 × 250, the whole corpus, terminal safety, hostile environments,
#                                     then both fuzzers for FUZZ_SECONDS each (default 600)
# ABCONSOLE_BIN=PATH uses that binary instead of building .build/release/abconsole.
set -euo pipefail
cd "$(dirname "$0")/../.."
mode=${1:-fast}
if [ -n "${ABCONSOLE_BIN:-}" ]; then
  bin=$ABCONSOLE_BIN
else
  swift build -c release --product abconsole >/dev/null
  swift build -c release --product client-example >/dev/null
  bin=.build/release/abconsole
fi
dir=scripts/reliability
case "$mode" in
  fast)
    python3 $dir/crash.py --bin "$bin" --kills 20
    python3 $dir/concurrency.py --bin "$bin" --operators 4 --mutations 50
    python3 $dir/corpus.py --bin "$bin" --skip-huge
    python3 $dir/corpus_inputs.py --bin "$bin"
    python3 $dir/terminal.py --bin "$bin"
    python3 $dir/hostile.py --bin "$bin"
    ;;
  full)
    python3 $dir/crash.py --bin "$bin" --kills 200
    python3 $dir/concurrency.py --bin "$bin" --operators 4 --mutations 250
    python3 $dir/corpus.py --bin "$bin"
    python3 $dir/corpus_inputs.py --bin "$bin"
    python3 $dir/terminal.py --bin "$bin"
    python3 $dir/hostile.py --bin "$bin"
    scripts/fuzz/build.sh
    scripts/fuzz/run.sh "${FUZZ_SECONDS:-600}"
    ;;
  *) echo "usage: $0 fast|full" >&2; exit 64 ;;
esac
