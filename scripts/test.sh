#!/usr/bin/env bash
# Installs what is missing, builds the developer preset (Debug, warnings as errors) in
# build/dev and runs every test through ctest (the Python package's pytest suite included).
# Quiet when all is well; the build log is shown when the build fails.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "${root}"
"${root}/scripts/install-deps.sh"

mkdir -p build/dev
log="build/dev/build.log"
if ! { cmake --preset dev && cmake --build --preset dev; } > "${log}" 2>&1; then
  cat "${log}" >&2
  echo "test.sh: build failed (log above, also in ${log})" >&2
  exit 1
fi
# The Python package's pytest suite is one of the ctests (python/CMakeLists.txt); it must
# not be left out silently because the package was not built.
if [[ ! -d build/dev/python/hdae ]]; then
  echo "test.sh: the Python package was not built (pybind11-dev, python3-dev missing?)" >&2
  exit 1
fi
ctest --preset dev
