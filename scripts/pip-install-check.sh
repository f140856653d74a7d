#!/usr/bin/env bash
# Installs the Python package with `pip install --no-build-isolation .` (Debian's pip and
# setuptools, nothing fetched) into a fresh venv that sees Debian's numpy and pandas
# (--system-site-packages), then, outside the source tree, imports it and runs a model with
# a known answer. Usage: scripts/pip-install-check.sh [VENV_DIR] (default: a temporary one).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${1:-$(mktemp -d)/venv}"
/usr/bin/python3 -m venv --system-site-packages "${venv}"
"${venv}/bin/pip" install --quiet --no-build-isolation --no-deps "${root}"
version="$(sed -n 's/^project(hdae VERSION \([0-9.]*\).*/\1/p' "${root}/CMakeLists.txt")"
cd /
HDAE_EXPECTED_VERSION="${version}" "${venv}/bin/python" - <<'PY'
import math
import os

import hdae

assert hdae.__version__ == os.environ["HDAE_EXPECTED_VERSION"], hdae.__version__
assert "site-packages" in hdae.__file__, hdae.__file__


class Decay(hdae.Model):
    """x' = -x, x(0) = 1: x(t) = exp(-t)."""

    def __init__(self):
        super().__init__("decay")
        self.x = self.declare_variable("x", start=1.0)
        self.eq = self.declare_equation("der(x) = -x")

    def evaluate(self, e):
        e.set(self.eq, e.der(self.x) + e.x(self.x))


r = hdae.simulate(Decay(), stop=1.0, rtol=1e-8)
assert r.status.outcome == "reached stop time", r.status
assert abs(r["x"][-1] - math.exp(-1.0)) < 1e-6, r["x"][-1]
print(f"pip-install-check.sh: hdae {hdae.__version__} installed in a venv, x(1) = exp(-1) to "
      f"{abs(r['x'][-1] - math.exp(-1.0)):.1e}")
PY
