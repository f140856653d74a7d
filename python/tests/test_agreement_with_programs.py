"""Every bundled model through Python agrees with its C++ example program's CSV.

hdae.simulate and the program hdae-<name> (examples/) build the same C++ model and run the
same Simulator with the same options, so the tables must match: same columns, same rows, and
values equal to round-off. The programs write each number with enough digits to read back the
same double, so equality bit for bit is expected; the bound 1e-12 (relative) only leaves room
for a last-digit difference in the decimal text and would still catch any change of the run
(another step sequence moves values by the tolerance, 1e-6 or more, not 1e-12).

The programs are found through HDAE_EXAMPLES_DIR, set by the ctest of python/CMakeLists.txt to
<build>/examples; without it these tests are skipped with the reason.
"""

import csv
import os
import pathlib
import subprocess

import numpy as np
import pytest

import hdae

# Stop time and relative tolerance of each run: the programs' own defaults (hdae-<name> --help),
# passed explicitly to both sides. The output interval is stop / 200 on both.
RUNS = {
    "pendulum": (10.0, 1e-8),
    "simple_state_events": (10.0, 1e-8),
    "bouncing_ball": (3.0, 1e-8),
    "mass_spring_chain": (10.0, 1e-6),
    "ideal_clutch": (500.0, 1e-8),
    "colliding_masses": (2.0, 1e-8),
    "colliding_masses_impact": (2.0, 1e-8),
    "three_masses": (2.0, 1e-8),
    "three_masses_impact": (2.0, 1e-8),
    "pendulum_dae": (2.0, 1e-8),
    "free_body_rotation": (5.0, 1e-8),
    "hydraulic_actuator": (10.0, 1e-8),
    "cartesian_pendulum": (10.0, 1e-8),
    "transistor_amplifier": (0.2, 1e-7),
    "iti_example1": (2.0, 1e-8),
    "iti_example2": (2.0, 1e-8),
    "pid_controller": (10.0, 1e-8),
    "pid_controller_der_substituted": (10.0, 1e-8),
    "pid_controller_substituted": (10.0, 1e-8),
    "pid_controller_reduced": (10.0, 1e-8),
    "tank_overflow": (5.0, 1e-8),
    "andrews_squeezer": (0.03, 1e-8),
    "slider_crank": (2.0, 1e-8),
    "wall_pendulum": (3.0, 1e-8),
    "string_pendulum": (2.0, 1e-8),
}
# A small chain keeps the run short; every other model runs with its default parameters.
PARAMETERS = {"mass_spring_chain": {"N": 20}}
# Options a program sets besides stop, rtol and the grid (its registry entry in
# examples/registry), given to the Python run as keywords as well.
OPTIONS = {
    "cartesian_pendulum": {"step_to_outputs": True},
    "transistor_amplifier": {"abs_tol_factor": 1.0, "step_growth_threshold": 6.0},
    "slider_crank": {"step_to_outputs": True},
    "wall_pendulum": {"step_to_outputs": True},
    "string_pendulum": {"step_to_outputs": True},
}


def examples_dir():
    path = os.environ.get("HDAE_EXAMPLES_DIR")
    if not path:
        pytest.skip("HDAE_EXAMPLES_DIR is not set (the ctest sets it to <build>/examples)")
    return pathlib.Path(path)


def read_table(path):
    """The header and the rows of a program's CSV as floats."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], np.array([[float(v) for v in row] for row in rows[1:]])


def run_program(name, tmp_path, stop, rtol, interval, parameters):
    program = examples_dir() / ("hdae-" + name.replace("_", "-"))
    if not program.is_file():
        raise FileNotFoundError(f"HDAE_EXAMPLES_DIR has no program {program.name} ({program})")
    out = tmp_path / f"{name}.csv"
    command = [str(program), "--stop", repr(stop), "--rtol", repr(rtol),
               "--output-interval", repr(interval), str(out)]
    for key, value in parameters.items():
        command += ["--set", f"{key}={value}"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, f"{' '.join(command)} failed:\n{done.stdout}{done.stderr}"
    return read_table(out)


def test_every_bundled_model_has_a_run_here():
    assert sorted(RUNS) == sorted(hdae.models.names())


@pytest.mark.parametrize("name", sorted(RUNS))
def test_python_run_matches_the_program_csv(name, tmp_path):
    stop, rtol = RUNS[name]
    interval = stop / 200
    parameters = PARAMETERS.get(name, {})
    header, table = run_program(name, tmp_path, stop, rtol, interval, parameters)

    result = hdae.simulate(hdae.models.make(name, **parameters), stop=stop, rtol=rtol,
                           output_interval=interval, **OPTIONS.get(name, {}))
    assert result.status.ok, result.status
    assert header == ["time"] + list(result.columns)
    ours = np.column_stack([np.asarray(result.time), np.asarray(result.values)])
    assert ours.shape == table.shape
    # Event rows are there on both sides: the time column holds the same repeated instants.
    np.testing.assert_array_equal(np.isnan(ours), np.isnan(table))
    finite = ~np.isnan(table)
    scale = np.maximum(np.abs(table[finite]), np.finfo(float).tiny)
    worst = float(np.max(np.abs(ours[finite] - table[finite]) / scale, initial=0.0))
    assert worst <= 1e-12, f"{name}: max relative difference {worst:.3e}"
