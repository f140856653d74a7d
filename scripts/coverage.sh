#!/usr/bin/env bash
# Line coverage of the tests: builds the coverage preset (Debug, gcc --coverage), runs every
# test and prints gcovr's line coverage per folder and in total. tests/, bench/, fuzz/ and
# generated files under build/ are left out: the figure is that of the code the tests exercise,
# not of the tests themselves. The per-file report is left in <build dir>/coverage.txt, the JSON
# summary the table is made from in <build dir>/coverage.json.
#   scripts/coverage.sh                    build/coverage
#   scripts/coverage.sh --build-dir DIR    another build directory (under the source tree)
#
# The build goes through a fixed path, a symbolic link to this checkout ($HDAE_COVERAGE_LINK,
# by default ~/.cache/hdae/coverage-source): an instrumented object holds the absolute path of
# its .gcda file, so ccache keys it by where it is built, and through the link every checkout
# builds in the same place and a fresh clone reuses what the last one compiled. A lock beside
# the link keeps two checkouts from using it at once.
# The doctest cases run in two processes (shuffled with a fixed seed and split in halves of
# about equal cost), not one process each as ctest runs them: each process that exits merges
# its counts into the .gcda file of every object it links. The other tests (programs, examples)
# run by ctest.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
build_rel="build/coverage"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build-dir) build_rel="${2%/}"; shift ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    *) echo "coverage.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
case "${build_rel}" in
  /*|..*) echo "coverage.sh: --build-dir must be a path under the source tree, not '${build_rel}'" >&2
          exit 2 ;;
esac
command -v gcovr > /dev/null || { echo "coverage.sh: gcovr is missing: run scripts/install-deps.sh" >&2; exit 2; }

link="${HDAE_COVERAGE_LINK:-${XDG_CACHE_HOME:-${HOME}/.cache}/hdae/coverage-source}"
mkdir -p "$(dirname "${link}")"
if [[ -e "${link}" && ! -L "${link}" ]]; then
  echo "coverage.sh: ${link} exists and is not a symbolic link: move it or set HDAE_COVERAGE_LINK" >&2
  exit 2
fi
exec 9> "${link}.lock"
flock 9
ln -sfn "${root}" "${link}"
# A logical cd: gcc and ccache take the working directory from $PWD, which keeps the link.
cd "${link}"
build_dir="${link}/${build_rel}"

mkdir -p "${build_dir}"
log="${build_dir}/build.log"
if ! { cmake --preset coverage -B "${build_dir}" && cmake --build "${build_dir}" -j 2; } > "${log}" 2>&1; then
  cat "${log}" >&2
  echo "coverage.sh: build failed (log above, also in ${root}/${build_rel}/build.log)" >&2
  exit 1
fi
# Counts of an earlier run would add to this one's.
find "${build_dir}" -name '*.gcda' -delete

run_logged() {
  local name="$1"
  shift
  if ! "$@" > "${build_dir}/${name}.log" 2>&1; then
    cat "${build_dir}/${name}.log" >&2
    echo "coverage.sh: ${name} failed (log above, also in ${root}/${build_rel}/${name}.log)" >&2
    return 1
  fi
  tail -n 2 "${build_dir}/${name}.log"
}
count="$("${build_dir}/tests/hdae_tests" --count | sed -n 's/.*filters: \([0-9]*\)$/\1/p')"
[[ "${count}" =~ ^[1-9][0-9]*$ ]] || {
  echo "coverage.sh: hdae_tests --count gave no number of test cases ('${count}')" >&2
  exit 1
}
half=$(((count + 1) / 2))
shard=(--order-by=rand --rand-seed=1 --no-intro --minimal)
(cd "${build_dir}/tests" && run_logged doctest-1 ./hdae_tests "${shard[@]}" --first=1 --last="${half}") &
first=$!
(cd "${build_dir}/tests" && run_logged doctest-2 ./hdae_tests "${shard[@]}" --first=$((half + 1))) ||
  { wait "${first}" || true; exit 1; }
wait "${first}" || exit 1
run_logged ctest ctest --test-dir "${build_dir}" -j 2 -LE doctest --output-on-failure

# gcov names a source by the path it was compiled under (the link), gcovr's own root filter by
# the root's real path: the filters name both, or every file may be filtered out.
gcovr --root "${link}" -j 2 --filter "${link}/" --filter "${root}/" \
  --exclude '(tests|bench|fuzz|build|cmake)/' --exclude-directories '.*/CMakeFiles/[0-9.]+$' \
  --txt "${build_dir}/coverage.txt" --json-summary "${build_dir}/coverage.json"
# engine/src is shown by concern (one folder each), the other libraries and programs whole.
# gcovr names the files by their real path, outside the root it was given (the link).
python3 - "${build_dir}/coverage.json" "${root}" << 'EOF'
import collections, json, os, sys

summary = json.load(open(sys.argv[1]))
folders = collections.defaultdict(lambda: [0, 0])
for f in summary["files"]:
    parts = os.path.relpath(f["filename"], sys.argv[2]).split("/")
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
if summary["line_total"] == 0:
    sys.exit("coverage.sh: gcovr counted no line (are the sources under the root it was given?)")
EOF
