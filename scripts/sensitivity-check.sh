#!/usr/bin/env bash
# The sensitivities of every bundled model against central differences of two perturbed runs
# (docs/design.md, "Sensitivities"): builds hdae-sensitivity-check (Release, own build
# directory) and prints one line per model and source: the worst relative error over the
# compared rows, where it is, and pass, FAIL or refused (sensitivities the model refuses by
# design, with the reason).
#
#   scripts/sensitivity-check.sh                      every model (seconds, after the build)
#   scripts/sensitivity-check.sh pendulum ideal_clutch   the models named
#   options: --build-dir DIR (default build/sensitivity-check, configured in Release when new);
#            the others go to hdae-sensitivity-check: --tolerance T (default 1e-5),
#            --sources a,b --stop S --relative-step H --dense (they change every plan)
#
# Exits 1 when a check fails.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${root}/build/sensitivity-check"
args=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build-dir) build_dir="$2"; shift ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) args+=("$1") ;;
  esac
  shift
done

mkdir -p "${build_dir}"
log="${build_dir}/build.log"
# A build directory configured already (build/dev, say) is used as it is.
configure=(cmake -S "${root}" -B "${build_dir}" -DCMAKE_BUILD_TYPE=Release -DHDAE_BUILD_TESTS=OFF
  -DHDAE_BUILD_PYTHON=OFF)
[[ -f "${build_dir}/CMakeCache.txt" ]] && configure=(true)
if ! { "${configure[@]}" && cmake --build "${build_dir}" -j2 --target hdae-sensitivity-check; } \
  > "${log}" 2>&1; then
  cat "${log}" >&2
  echo "sensitivity-check.sh: build failed (log above, also in ${log})" >&2
  exit 1
fi
exec "${build_dir}/tools/hdae-sensitivity-check" "${args[@]}"
