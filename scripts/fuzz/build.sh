#!/usr/bin/env bash
# Builds the libFuzzer targets: the ExperimentCore, ExperimentEditing and ExperimentStore sources compiled as one module
# with one entry file each, with `swiftc -sanitize=fuzzer` (not part of Package.swift).
# Output: .build-fuzz/{store-loader,whitelist-csv,payload,subjects}-fuzz.
#   scripts/fuzz/build.sh [TARGET ...]   (default: all four)
set -euo pipefail
cd "$(dirname "$0")/../.."
out=.build-fuzz
mkdir -p "$out/src"
# The store and editing sides import the read side (and the store the editing side); compiled as one module, those imports are dropped.
rm -f "$out"/src/*.swift
for file in $(find Sources/ExperimentStore Sources/ExperimentEditing -name '*.swift' | sort); do
  sed 's/^import ExperimentCore$//; s/^import ExperimentEditing$//' "$file" >"$out/src/$(basename "$file")"
done
mapfile -t core < <(find Sources/ExperimentCore "$out/src" -name '*.swift' | sort)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(StoreLoaderFuzz:store-loader-fuzz WhitelistCSVFuzz:whitelist-csv-fuzz PayloadFuzz:payload-fuzz SubjectsFuzz:subjects-fuzz)
for target in "${targets[@]}"; do
  entry=${target%%:*} name=${target##*:}
  echo "fuzz: building $out/$name"
  swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name ExperimentCore -package-name abconsole \
    "${core[@]}" "scripts/fuzz/$entry.swift" -o "$out/$name"
done
