#!/usr/bin/env bash
# Line coverage of the tests: builds the coverage preset (Debug, gcc --coverage), runs the
# ctest suite and prints gcovr's line coverage per folder and in total. tests/, bench/, fuzz/
# and generated files under build/ are left out: the figure is that of the code the tests
# exercise, not of the tests themselves. The per-file report is left in
# <build dir>/coverage.txt, the JSON summary the table is made from in
# <build dir>/coverage.json.
# The preset compiles through ccache as it is, without the source-relative paths the other
# builds give it (cmake/HdaeCompilerCache.cmake): gcc would keep those relative paths in the
# .gcno files, which gcovr cannot resolve; with absolute ones a build in the same place reuses
# what the last one compiled.
#   scripts/coverage.sh                    build/coverage
#   scripts/coverage.sh --build-dir DIR    another build directory
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "${root}"
build_dir="build/coverage"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build-dir) build_dir="${2%/}"; shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "coverage.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
command -v gcovr > /dev/null || { echo "coverage.sh: gcovr is missing: run scripts/install-deps.sh" >&2; exit 2; }

mkdir -p "${build_dir}"
log="${build_dir}/build.log"
if ! { cmake --preset coverage -B "${build_dir}" && cmake --build "${build_dir}" -j 2; } > "${log}" 2>&1; then
  cat "${log}" >&2
  echo "coverage.sh: build failed (log above, also in ${log})" >&2
  exit 1
fi
# Counts of an earlier run would add to this one's.
find "${build_dir}" -name '*.gcda' -delete
ctest --test-dir "${build_dir}" -j 2 --output-on-failure --progress > "${build_dir}/ctest.log" 2>&1 || {
  cat "${build_dir}/ctest.log" >&2
  echo "coverage.sh: tests failed (log above, also in ${build_dir}/ctest.log)" >&2
  exit 1
}
tail -n 3 "${build_dir}/ctest.log"

gcovr --root "${root}" --object-directory "${build_dir}" -j 2 \
  --exclude "${root}/(tests|bench|fuzz|build)/" --exclude-directories '.*/CMakeFiles/[0-9.]+$' \
  --txt "${build_dir}/coverage.txt" --json-summary "${build_dir}/coverage.json"
# engine/src is shown by concern (one folder each), the other libraries and programs whole.
python3 - "${build_dir}/coverage.json" << 'EOF'
import collections, json, sys

summary = json.load(open(sys.argv[1]))
folders = collections.defaultdict(lambda: [0, 0])
for f in summary["files"]:
    parts = f["filename"].split("/")
    key = parts[0]
    if key == "engine":
        key = "/".join(parts[:3] if parts[1] == "src" and len(parts) > 3 else parts[:2])
    folders[key][0] += f["line_covered"]
    folders[key][1] += f["line_total"]
print("| folder | lines | covered | line coverage |\n| --- | ---: | ---: | ---: |")
for key, (covered, total) in sorted(folders.items()):
    print(f"| {key} | {total} | {covered} | {100.0 * covered / max(total, 1):.1f} % |")
print(f"| total | {summary['line_total']} | {summary['line_covered']} | "
      f"{summary['line_percent']:.1f} % |")
EOF
