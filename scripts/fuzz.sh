#!/bin/sh
# Fuzzes with libFuzzer, for a bounded time each:
#   read_csv_fuzzer  read_csv, and on what it accepts the CSV round trip and a self-comparison
#                    (fuzz/read_csv_fuzzer.cpp; seeds fuzz/corpus plus references/*.csv)
#   compare_fuzzer   the comparison of two files, read and compared as hdae-compare does
#                    (fuzz/compare_fuzzer.cpp; seeds fuzz/compare_corpus and fuzz/corpus)
# Each is built with clang++ -fsanitize=fuzzer,address,undefined from the sources behind it.
# Usage: scripts/fuzz.sh [seconds per fuzzer]          (default 30)
# Exit status: 0 nothing found; otherwise libFuzzer's (the crashing input is written to
# build/fuzz/<fuzzer>-crash-*, reproduce with: build/fuzz/<fuzzer> build/fuzz/<fuzzer>-crash-...).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-30}
out=${HDAE_FUZZ_BUILD_DIR:-$root/build/fuzz}
cxx=${CXX_FUZZ:-clang++}
mkdir -p "$out/corpus" "$out/compare_corpus"

# The sources behind read_csv, write_csv and compare_results (the whole of compare/src),
# instrumented as a whole.
sources="$root/engine/src/results/csv_reader.cpp $root/engine/src/results/csv_writer.cpp
  $root/engine/src/results/result_table.cpp $root/engine/src/results/quoted_text.cpp
  $root/engine/src/results/atomic_file.cpp $root/engine/src/results/regular_file.cpp
  $root/engine/src/results/record_names.cpp $root/engine/src/results/shortest_double.cpp
  $root/engine/src/results/table_values.cpp
  $root/engine/src/simulator/status.cpp
  $(ls "$root"/compare/src/*.cpp)"
flags="-std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined"
includes="-I $root/engine/include -I $root/engine/src -I $root/compare/include -I $root/compare/src"
# Compiled once (-fsanitize=fuzzer-no-link: instrumented, no main), linked into both fuzzers.
mkdir -p "$out/obj"
objects=""
for source in $sources; do
  object="$out/obj/$(basename "$source" .cpp).o"
  # shellcheck disable=SC2086
  "$cxx" $flags -fsanitize=fuzzer-no-link $includes -c "$source" -o "$object"
  objects="$objects $object"
done
for fuzzer in read_csv_fuzzer compare_fuzzer; do
  # shellcheck disable=SC2086
  "$cxx" $flags $includes "$root/fuzz/$fuzzer.cpp" $objects -lfmt -o "$out/$fuzzer"
done

# New inputs go to the build directory; the checked-in seeds stay as they are.
cp "$root"/references/*.csv "$out/corpus/" 2>/dev/null || true
"$out/read_csv_fuzzer" -max_total_time="$seconds" -max_len=4096 -timeout=10 \
  -rss_limit_mb=2048 -dict="$root/fuzz/csv.dict" -artifact_prefix="$out/read_csv_fuzzer-" \
  -print_final_stats=1 "$out/corpus" "$root/fuzz/corpus"
# Longer inputs: two files, one of them 3000 columns wide (fuzz/compare_corpus/wide_*.csv).
"$out/compare_fuzzer" -max_total_time="$seconds" -max_len=32768 -timeout=10 \
  -rss_limit_mb=2048 -dict="$root/fuzz/csv.dict" -artifact_prefix="$out/compare_fuzzer-" \
  -print_final_stats=1 "$out/compare_corpus" "$root/fuzz/compare_corpus" "$root/fuzz/corpus"
