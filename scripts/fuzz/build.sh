#!/usr/bin/env bash
# Builds the libFuzzer targets for the store loader and the whitelist CSV reader: the ExperimentCore
# sources compiled with one entry file each, with `swiftc -sanitize=fuzzer` (not part of Package.swift).
# Output: .build-fuzz/store-loader-fuzz and .build-fuzz/whitelist-csv-fuzz.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=.build-fuzz
mkdir -p "$out"
mapfile -t core < <(find Sources/ExperimentCore -name '*.swift' | sort)
for target in StoreLoaderFuzz:store-loader-fuzz WhitelistCSVFuzz:whitelist-csv-fuzz; do
  entry=${target%%:*} name=${target##*:}
  echo "fuzz: building $out/$name"
  swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name ExperimentCore \
    "${core[@]}" "scripts/fuzz/$entry.swift" -o "$out/$name"
done
