#!/bin/sh
# The layering and size rules (docs/design.md, "The layers"), checked on the sources:
#   - a folder of engine/src includes only the folders below it in the partial order of
#     docs/design.md (the floors core (options, status, statistics: public headers only) and
#     sparsity <- linalg; sparsity <- sundials, model; model, linalg <- events <- reinit <-
#     structure; model <- results; events <- sensitivity; events, reinit, results, sensitivity,
#     sundials <- simulator <- sweep);
#   - the public headers (engine/include/hdae) include neither engine/src nor SUNDIALS;
#   - in the libraries and programs (engine, reduction, compare, models, fmi, fmu_export,
#     tools, examples, python/src) no source file is longer than 400 lines and no function
#     longer than 60; tests, benchmarks and fuzz targets, which hold tables of cases, get twice
#     that;
#   - in the engine, the reduction, the comparison, the FMI import and export, the programs of
#     tools and the Python module no class has more than 20 data members (plain records, declared
#     struct, such as the options and the statistics, are the user's vocabulary and are not
#     counted; the models' classes hold one handle per variable and equation, as the physics
#     reads).
#   Functions and members are found by Universal Ctags (exit 77, a skip, when it is missing).
#   tests/scripts/architecture_check.sh [source root]
set -eu
root="${1:-$(cd "$(dirname "$0")/../.." && pwd)}"
src="${root}/engine/src"
status=0

# allowed FOLDER: the folders FOLDER may include from, the partial order of docs/design.md.
allowed() {
  case "$1" in
    core | sparsity) echo "" ;;
    linalg | sundials | model) echo "sparsity" ;;
    events | results) echo "model sparsity" ;;
    sensitivity) echo "events model sparsity" ;;
    reinit) echo "events model linalg sparsity" ;;
    structure) echo "reinit events model linalg sparsity" ;;
    simulator) echo "events reinit results sensitivity sundials model linalg sparsity" ;;
    sweep) echo "simulator events reinit results sensitivity sundials model linalg sparsity" ;;
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
  if grep -nE '^#include [<"](ida|sundials|nvector|sunmatrix|sunlinsol|sunnonlinsol|Eigen|unsupported)/|^#include <klu|^#include "(events|model|reinit|results|sensitivity|simulator|sparsity|structure|sundials|sweep)/' "${file}"; then
    echo "architecture: public header ${file#"${root}"/} includes the engine's internals, SUNDIALS, KLU or Eigen"
    status=1
  fi
done

# sources DIR...: the C++ sources under the given folders of the root.
sources() {
  for d in "$@"; do
    [ -d "${root}/${d}" ] && find "${root}/${d}" -name '*.cpp' -o -name '*.hpp'
  done | sort
}
libraries="engine reduction compare models fmi fmu_export tools examples python/src"
checks="tests bench fuzz"

# too_long MAX FILE...: the files longer than MAX lines.
too_long() {
  max="$1"
  shift
  for file in "$@"; do
    lines="$(wc -l < "${file}")"
    [ "${lines}" -gt "${max}" ] && echo "architecture: ${file#"${root}"/} has ${lines} lines (at most ${max})"
  done
  return 0
}
# shellcheck disable=SC2046 # one word per file name (the names hold no blanks)
long_files="$(too_long 400 $(sources ${libraries}); too_long 800 $(sources ${checks}))"
if [ -n "${long_files}" ]; then
  echo "${long_files}"
  status=1
fi

if [ -e "${root}/.architecture_failed.$$" ]; then
  rm -f "${root}/.architecture_failed.$$"
  status=1
fi

if ! command -v ctags > /dev/null || ! ctags --version 2> /dev/null | grep -q Universal; then
  echo "architecture: Universal Ctags missing, function lengths not checked"
  [ "${status}" -eq 0 ] && exit 77
  exit "${status}"
fi
# long_functions MAX FILE...: the functions longer than MAX lines.
long_functions() {
  max="$1"
  shift
  [ $# -eq 0 ] && return 0
  ctags --c++-kinds=f --fields=+ne -o - "$@" | awk -F '\t' -v max="${max}" '{
    first = 0; last = 0
    for (i = 1; i <= NF; ++i) {
      if ($i ~ /^line:/) first = substr($i, 6)
      if ($i ~ /^end:/) last = substr($i, 5)
    }
    if (last - first + 1 > max) printf "%s:%d %s has %d lines (at most %d)\n", $2, first, $1, last - first + 1, max
  }'
}
# shellcheck disable=SC2046
long="$(long_functions 60 $(sources ${libraries}); long_functions 120 $(sources ${checks}))"
if [ -n "${long}" ]; then
  echo "${long}" | sed "s|^${root}/|architecture: |"
  status=1
fi
# Data members per class (ctags kind m, scope class:...; structs are records, not counted).
# shellcheck disable=SC2046
crowded="$(ctags --c++-kinds=m --fields=+nKsZ -o - $(sources engine reduction compare fmi fmu_export tools python/src) | awk -F '\t' '{
    for (i = 5; i <= NF; ++i) if ($i ~ /^scope:class:/) count[substr($i, 13)]++
  } END { for (c in count) if (count[c] > 20) printf "architecture: class %s has %d data members (at most 20)\n", c, count[c] }')"
if [ -n "${crowded}" ]; then
  echo "${crowded}"
  status=1
fi
[ "${status}" -eq 0 ] && echo "architecture: layers, file, function and class sizes as docs/design.md says"
exit "${status}"
