#!/bin/sh
# Fuzzes with libFuzzer, for a bounded time each:
#   read_csv_fuzzer  read_csv, and on what it accepts the CSV round trip and a self-comparison
#                    (fuzz/read_csv_fuzzer.cpp; seeds fuzz/corpus plus references/*.csv)
#   compare_fuzzer   the comparison of two files, read and compared as hdae-compare does
#                    (fuzz/compare_fuzzer.cpp; seeds fuzz/compare_corpus and fuzz/corpus)
# Each is built by CMake (fuzz/CMakeLists.txt, the fuzz preset) with clang's libFuzzer and the
# address and undefined-behaviour sanitizers.
# Usage: scripts/fuzz.sh [seconds per fuzzer]          (default 30)
# Exit status: 0 nothing found; otherwise libFuzzer's (the crashing input is written to
# build/fuzz/<fuzzer>-crash-*, reproduce with: build/fuzz/fuzz/<fuzzer> build/fuzz/<fuzzer>-crash-...).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-30}
out=${HDAE_FUZZ_BUILD_DIR:-$root/build/fuzz}
cxx=${CXX_FUZZ:-clang++}
mkdir -p "$out/corpus" "$out/compare_corpus"

(cd "$root" && cmake --preset fuzz -B "$out" -DCMAKE_CXX_COMPILER="$cxx") > "$out/configure.log" 2>&1 ||
  { cat "$out/configure.log"; exit 1; }
cmake --build "$out" -j 2 --target read_csv_fuzzer compare_fuzzer
bin="$out/fuzz"

# New inputs go to the build directory; the checked-in seeds stay as they are.
cp "$root"/references/*.csv "$out/corpus/" 2>/dev/null || true
"$bin/read_csv_fuzzer" -max_total_time="$seconds" -max_len=4096 -timeout=10 \
  -rss_limit_mb=2048 -dict="$root/fuzz/csv.dict" -artifact_prefix="$out/read_csv_fuzzer-" \
  -print_final_stats=1 "$out/corpus" "$root/fuzz/corpus"
# Longer inputs: two files, one of them 3000 columns wide (fuzz/compare_corpus/wide_*.csv).
"$bin/compare_fuzzer" -max_total_time="$seconds" -max_len=32768 -timeout=10 \
  -rss_limit_mb=2048 -dict="$root/fuzz/csv.dict" -artifact_prefix="$out/compare_fuzzer-" \
  -print_final_stats=1 "$out/compare_corpus" "$root/fuzz/compare_corpus" "$root/fuzz/corpus"
