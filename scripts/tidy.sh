#!/usr/bin/env bash
# clang-tidy (the project's .clang-tidy, warnings as errors) over C++ sources of the engine,
# with the compile commands of the developer build (build/dev, made by scripts/test.sh).
#   scripts/tidy.sh                  every source of engine/src (minutes)
#   scripts/tidy.sh --changed N      the engine sources changed in the last N commits
#   scripts/tidy.sh FILE...          those files
# The engine's sources are held to it; other folders are checked by hand for now.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "${root}"
if [[ ! -f build/dev/compile_commands.json ]]; then
  echo "tidy.sh: build/dev/compile_commands.json is missing: run scripts/test.sh first" >&2
  exit 2
fi
files=()
if [[ $# -ge 2 && "$1" == "--changed" ]]; then
  count="$2"
  [[ "${count}" =~ ^[0-9]+$ ]] || { echo "tidy.sh: --changed takes a number of commits" >&2; exit 2; }
  available="$(git rev-list --count HEAD)"
  (( count < available )) || count=$((available - 1))
  while IFS= read -r f; do
    [[ -f "${f}" ]] && files+=("${f}")
  done < <(git diff --name-only "HEAD~${count}" HEAD -- 'engine/src/*.cpp')
elif [[ $# -gt 0 ]]; then
  files=("$@")
else
  mapfile -t files < <(git ls-files 'engine/src/*.cpp')
fi
if [[ ${#files[@]} -eq 0 ]]; then
  echo "tidy.sh: no engine source to check"
  exit 0
fi
echo "tidy.sh: ${#files[@]} file(s)"
printf '%s\n' "${files[@]}" | xargs -P 2 -n 4 clang-tidy-14 -p build/dev --quiet --warnings-as-errors='*'
echo "tidy.sh: no warnings"
