#!/bin/sh
# Fuzzes read_csv (and, on what it accepts, the CSV round trip and a self-comparison) with
# libFuzzer: builds fuzz/read_csv_fuzzer.cpp with clang++ -fsanitize=fuzzer,address,undefined
# and runs it for a bounded time from the seed corpus fuzz/corpus (plus references/*.csv).
# Usage: scripts/fuzz.sh [seconds]          (default 60)
# Exit status: 0 nothing found; otherwise libFuzzer's (the crashing input is written to
# build/fuzz/crash-*, reproduce with: build/fuzz/read_csv_fuzzer build/fuzz/crash-...).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
out=${HDAE_FUZZ_BUILD_DIR:-$root/build/fuzz}
cxx=${CXX_FUZZ:-clang++}
mkdir -p "$out/corpus"

# The sources behind read_csv, write_csv and compare_results, instrumented as a whole.
sources="$root/fuzz/read_csv_fuzzer.cpp
  $root/engine/src/results/csv_reader.cpp $root/engine/src/results/csv_writer.cpp
  $root/engine/src/results/result_table.cpp $root/engine/src/simulator/status.cpp
  $root/compare/src/polyline.cpp $root/compare/src/event_alignment.cpp
  $root/compare/src/compare_options.cpp $root/compare/src/compare_results.cpp
  $root/compare/src/compare_report.cpp"
# shellcheck disable=SC2086
"$cxx" -std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -I "$root/engine/include" -I "$root/engine/src" -I "$root/compare/include" \
  -I "$root/compare/src" $sources -lfmt -o "$out/read_csv_fuzzer"

# New inputs go to the build directory; the checked-in seeds stay as they are.
cp "$root"/references/*.csv "$out/corpus/" 2>/dev/null || true
exec "$out/read_csv_fuzzer" -max_total_time="$seconds" -max_len=4096 -timeout=10 \
  -rss_limit_mb=2048 -dict="$root/fuzz/csv.dict" -artifact_prefix="$out/" \
  -print_final_stats=1 "$out/corpus" "$root/fuzz/corpus"
