"""Reads an ideal-clutch result written by hdae-ideal-clutch to .h5 with h5py alone and checks
it against the clutch's known answers (models/ideal_clutch.hpp, docs/design.md "The jump
solve"). Run with the columns 'w*,tau,u_C' and every fifth output point recorded.
Exit status 0 when every check holds; the failed checks are printed otherwise."""

import sys

import h5py
import numpy as np

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)


with h5py.File(sys.argv[1], "r") as f:
    # Strings are fixed-length UTF-8: h5py gives bytes for attributes, .asstr() for datasets.
    check(f.attrs["format"].decode() == "hdae-result", "format attribute")
    check(f.attrs["format_version"] == 2, "format version")
    names = list(f["columns/name"].asstr()[:])
    kinds = list(f["columns/kind"].asstr()[:])
    units = list(f["columns/unit"].asstr()[:])
    check(names == ["w1", "w2", "tau", "u_C"], f"columns {names}")
    check(kinds == ["state", "state", "derivative", "output"], f"kinds {kinds}")
    check(units[3] == "V", f"unit of u_C {units[3]}")
    time = f["time"][:]
    values = f["values"][:]
    check(values.shape == (time.size, 4), f"values shape {values.shape}")
    # A table as pandas would hold it: one array per column name.
    table = {name: values[:, i] for i, name in enumerate(names)}
    # u_C = k w1 with k = 0.25 in every row (an output the model computes from the state).
    check(np.allclose(table["u_C"], 0.25 * table["w1"], rtol=1e-12, atol=0), "u_C = k w1")
    # Locked at t0: (J1 + k^2 C) w1 + J2 w2 is conserved, with J1 + k^2 C = 0.1 + 0.125 =
    # 0.225 and J2 = 0.4: 0.225 * 0 + 0.4 * 10 = 4 = (0.225 + 0.4) w, so w = 6.4 rad/s.
    check(time[0] == 0.0 and time[1] == 0.0, "two rows at t0")
    check(abs(values[1, 0] - 6.4) < 1e-7 and abs(values[1, 1] - 6.4) < 1e-7, "6.4 rad/s at t0+")
    engaged = (time > 0) & (time < 100)
    check(np.allclose(table["w1"][engaged], table["w2"][engaged], rtol=1e-7), "w1 = w2 engaged")
    # The example's grid is 500 intervals over 500 s (dt = 1 s); every fifth point is kept,
    # so besides the event rows (t0, 100 s, 300 s) the rows lie 5 s apart: 5, 10, ..., 500.
    grid = time[(time > 0) & (time != 100) & (time != 300)]
    check(np.all(np.minimum(grid % 5.0, 5.0 - grid % 5.0) < 1e-9), "every fifth grid point")
    check(grid.size == 100 - 2, f"{grid.size} grid rows, expected 98 (5..500 without 100, 300)")
    events = f["events"]
    kinds = list(events["kind"].asstr()[:])
    etime = events["time"][:]
    check(list(etime[[k == "time" for k in kinds]]) == [100.0, 300.0], f"time events {etime}")
    jumps = events["jumps"]
    first = jumps["event"][:] == 0
    variables = list(jumps["variable"].asstr()[:][first])
    check("w1" in variables and "w2" in variables, f"jumps at t0 {variables}")
    w1 = variables.index("w1")
    check(jumps["before"][:][first][w1] == 0.0, "w1 before the t0 jump")
    check(abs(jumps["after"][:][first][w1] - 6.4) < 1e-7, "w1 after the t0 jump")
    check(f.attrs["status"].decode() == "reached stop time", f"status {f.attrs['status']}")

for what in failures:
    print("check_clutch_h5.py: failed:", what, file=sys.stderr)
sys.exit(1 if failures else 0)
