#!/bin/sh
# Installs the Debian packages hdae needs, and only those that are missing: a second run
# prints nothing and changes nothing. Uses sudo when not run as root.
#   scripts/install-deps.sh           everything (build, tests, plots, fuzzing, benchmarks)
#   scripts/install-deps.sh --build   only what building the libraries and examples needs
set -eu

build="cmake g++ libsundials-dev libsuitesparse-dev libeigen3-dev libfmt-dev libcli11-dev"
# libhdf5-dev: HDF5 result files; python3-h5py: a test reads them back independently of hdae.
build="$build libhdf5-dev pkgconf"
# libzip-dev, libpugixml-dev: the import of FMUs (fmi/), their zip archives and their
# modelDescription.xml.
build="$build libzip-dev libpugixml-dev"
# doctest-dev: tests; python3-matplotlib: plots of results; clang, libclang-rt-14-dev:
# libFuzzer and the sanitizers' clang runtime; clang-format: the format check; valgrind:
# memcheck of the examples; python3-scipy: SciPy as the peer in the benchmarks.
extra="doctest-dev python3-matplotlib clang libclang-rt-14-dev clang-format valgrind python3-scipy"
# universal-ctags: function lengths in the architecture check (tests/scripts/); ccache: a
# compiler cache that rebuilds in other build directories and checkouts reuse
# (cmake/HdaeCompilerCache.cmake).
extra="$extra python3-h5py universal-ctags ccache"
# doxygen: the API reference of the public headers (scripts/api-docs.sh); gcovr: the line
# coverage of the tests (scripts/coverage.sh).
extra="$extra doxygen gcovr"
# The Python package (python/): pybind11 and the headers to build it, numpy and pandas for
# results, Dask (python3-distributed) and tqdm for sweeps, pytest for its tests, python3-venv
# for build/venv (scripts/run.sh), pyflakes to lint it in CI, pip, setuptools and wheel for
# `pip install --no-build-isolation .` (setup.py).
python="python3-dev pybind11-dev python3-pybind11 python3-numpy python3-pandas
python3-distributed python3-tqdm python3-pytest python3-venv python3-pyflakes
python3-pip python3-setuptools python3-wheel"
# python3-numba: compiled residuals of Python models (Model.set_compiled_residual) and their tests.
python="$python python3-numba"

case "${1:-}" in
  --build) wanted="$build" ;;
  "") wanted="$build $extra $python" ;;
  *) echo "install-deps.sh: unknown option '$1' (use --build or nothing)" >&2; exit 2 ;;
esac

missing=""
for p in $wanted; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [ "$status" = "install ok installed" ] || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "install-deps.sh: installing$missing" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || {
    echo "install-deps.sh: not root and no sudo; install as root:$missing" >&2
    exit 1
  }
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086
$sudo apt-get update -qq >/dev/null
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
