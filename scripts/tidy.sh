#!/usr/bin/env bash
# clang-tidy (the project's .clang-tidy, warnings as errors) over the C++ sources of the
# libraries and programs: engine/, compare/, reduction/, models/, fmi/, fmu_export/, examples/, tools/,
# python/src/ and bench/.
#   scripts/tidy.sh --all            every source of those folders (the longest run)
#   scripts/tidy.sh --changed N      the sources changed in the last N commits, and the
#                                    sources named like a changed header (foo.hpp: */foo.cpp)
#   scripts/tidy.sh FILE...          those files
#   -p DIR (first)                   the build whose compile_commands.json to use
# By default a source is looked up in build/dev (scripts/test.sh makes it), then in build/bench
# (scripts/bench.sh; bench/ is built there only); a source neither build compiles is named and
# skipped. tests/ is left out: clang 14 cannot compile all of it (lambdas that capture
# structured bindings, C++20 it lacks), and it is the largest folder.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "${root}"
folders=(engine compare reduction models fmi fmu_export examples tools python/src bench)
builds=(build/dev build/bench)
if [[ $# -ge 2 && "$1" == "-p" ]]; then
  builds=("${2%/}")
  shift 2
fi
[[ -f "${builds[0]}/compile_commands.json" ]] || {
  echo "tidy.sh: ${builds[0]}/compile_commands.json is missing: run scripts/test.sh first" >&2
  exit 2
}
sources() { git ls-files -- "${folders[@]/%//*.cpp}"; }
files=()
case "${1:-}" in
  --all)
    mapfile -t files < <(sources)
    ;;
  --changed)
    count="${2:-}"
    [[ "${count}" =~ ^[0-9]+$ ]] || { echo "tidy.sh: --changed takes a number of commits" >&2; exit 2; }
    available="$(git rev-list --count HEAD)"
    (( count < available )) || count=$((available - 1))
    changed="$(git diff --name-only "HEAD~${count}" HEAD -- '*.cpp' '*.hpp')"
    # A changed header is checked through the source of the same name, which includes it.
    stems="$(grep -E '\.hpp$' <<< "${changed}" | sed -E 's|.*/||; s|\.hpp$|.cpp|' | sort -u || true)"
    mapfile -t files < <(sources | while IFS= read -r f; do
      if grep -qxF "${f}" <<< "${changed}" || grep -qxF "${f##*/}" <<< "${stems}"; then
        echo "${f}"
      fi
    done)
    ;;
  "" | -*)
    echo "usage: scripts/tidy.sh [-p BUILD_DIR] --all | --changed N | FILE..." >&2
    exit 2
    ;;
  *)
    files=("$@")
    ;;
esac

# Which build compiles each file: the first of builds whose compile commands name it.
declare -A by_build=()
skipped=()
for f in "${files[@]}"; do
  [[ -f "${f}" ]] || continue
  found=""
  for b in "${builds[@]}"; do
    if [[ -f "${b}/compile_commands.json" ]] &&
      grep -qF "\"file\": \"${root}/${f#"${root}"/}\"" "${b}/compile_commands.json"; then
      found="${b}"
      break
    fi
  done
  if [[ -n "${found}" ]]; then by_build["${found}"]+="${f}"$'\n'; else skipped+=("${f}"); fi
done
if [[ ${#skipped[@]} -gt 0 ]]; then
  echo "tidy.sh: skipped, compiled by none of ${builds[*]}: ${skipped[*]}"
fi
total=0
for b in "${!by_build[@]}"; do total=$((total + $(grep -c . <<< "${by_build[${b}]}"))); done
if [[ ${total} -eq 0 ]]; then
  echo "tidy.sh: no source to check"
  exit 0
fi
echo "tidy.sh: ${total} file(s)"
for b in "${!by_build[@]}"; do
  printf '%s' "${by_build[${b}]}" |
    xargs -P 2 -n 4 clang-tidy-14 -p "${b}" --quiet --warnings-as-errors='*'
done
echo "tidy.sh: no warnings"
