#!/bin/sh
# The engine's layering and size rules (docs/design.md, "The layers"), checked on the sources:
#   - a folder of engine/src includes only the folders below it in the partial order of
#     docs/design.md (sparsity <- sundials, model; model <- events <- reinit <- structure;
#     model <- results; events, reinit, results, sundials <- simulator <- sweep);
#   - the public headers (engine/include/hdae) include neither engine/src nor SUNDIALS;
#   - no source file of engine/src is longer than 400 lines;
#   - no function in engine/src is longer than 60 lines (Universal Ctags gives each function's
#     first and last line; exit 77, a skip, when it is missing).
#   tests/scripts/architecture_check.sh [source root]
set -eu
root="${1:-$(cd "$(dirname "$0")/../.." && pwd)}"
src="${root}/engine/src"
status=0

# allowed FOLDER: the folders FOLDER may include from, the partial order of docs/design.md.
allowed() {
  case "$1" in
    sparsity) echo "" ;;
    sundials | model) echo "sparsity" ;;
    events | results) echo "model sparsity" ;;
    reinit) echo "events model sparsity" ;;
    structure) echo "reinit events model sparsity" ;;
    simulator) echo "events reinit results sundials model sparsity" ;;
    sweep) echo "simulator events reinit results sundials model sparsity" ;;
    *) echo "unknown" ;;
  esac
}

for dir in "${src}"/*/; do
  folder="$(basename "${dir}")"
  own="$(allowed "${folder}")"
  if [ "${own}" = "unknown" ]; then
    echo "architecture: engine/src/${folder} has no layer (tests/scripts/architecture_check.sh)"
    status=1
    continue
  fi
  for file in "${dir}"*; do
    grep -n '^#include "[a-z_]*/' "${file}" | while IFS= read -r line; do
      target="$(echo "${line}" | sed 's/^[0-9]*:#include "\([a-z_]*\)\/.*/\1/')"
      [ "${target}" = "hdae" ] && continue
      [ "${target}" = "${folder}" ] && continue
      if ! echo " ${own} " | grep -q " ${target} "; then
        echo "architecture: ${file#"${root}"/}:${line%%:*} includes ${target}/, not a lower layer than ${folder}/"
        echo fail > "${root}/.architecture_failed.$$"
      fi
    done
  done
done

for file in "${root}"/engine/include/hdae/*.hpp; do
  if grep -nE '^#include [<"](ida|sundials|nvector|sunmatrix|sunlinsol|sunnonlinsol|Eigen|unsupported)/|^#include <klu|^#include "(events|model|reinit|results|simulator|sparsity|structure|sundials|sweep)/' "${file}"; then
    echo "architecture: public header ${file#"${root}"/} includes the engine's internals, SUNDIALS, KLU or Eigen"
    status=1
  fi
done

for file in "${src}"/*/*.cpp "${src}"/*/*.hpp; do
  lines="$(wc -l < "${file}")"
  if [ "${lines}" -gt 400 ]; then
    echo "architecture: ${file#"${root}"/} has ${lines} lines (at most 400)"
    status=1
  fi
done

if [ -e "${root}/.architecture_failed.$$" ]; then
  rm -f "${root}/.architecture_failed.$$"
  status=1
fi

if ! command -v ctags > /dev/null || ! ctags --version 2> /dev/null | grep -q Universal; then
  echo "architecture: Universal Ctags missing, function lengths not checked"
  [ "${status}" -eq 0 ] && exit 77
  exit "${status}"
fi
long="$(ctags --c++-kinds=f --fields=+ne -o - "${src}"/*/*.cpp "${src}"/*/*.hpp |
  awk -F '\t' '{
    first = 0; last = 0
    for (i = 1; i <= NF; ++i) {
      if ($i ~ /^line:/) first = substr($i, 6)
      if ($i ~ /^end:/) last = substr($i, 5)
    }
    if (last - first + 1 > 60) printf "%s:%d %s has %d lines (at most 60)\n", $2, first, $1, last - first + 1
  }')"
if [ -n "${long}" ]; then
  echo "${long}" | sed "s|^${root}/|architecture: |"
  status=1
fi
[ "${status}" -eq 0 ] && echo "architecture: layers, file and function sizes as docs/design.md says"
exit "${status}"
