"""hdae.load_fmu: the FMUs of tests/fmi/fmus (built for the C++ tests) from Python."""

import math
import os
import pathlib

import pytest

import hdae

FMU_DIR = os.environ.get("HDAE_TEST_FMU_DIR")
pytestmark = pytest.mark.skipif(FMU_DIR is None, reason="built without the FMI tests' FMUs")


def fmu(name):
    return pathlib.Path(FMU_DIR) / f"{name}.fmu"


def test_a_decay_fmu_with_its_parameter_and_input_follows_the_closed_form():
    decay = hdae.load_fmu(fmu("decay"), k=2.0, u=3.0)
    r = hdae.simulate(decay, stop=2.0, rtol=1e-10)
    # der(x) = -k x + u, x(0) = 1: x = u/k + (1 - u/k) exp(-k t); rel_tol 1e-10 keeps the
    # global error of the decaying exponential below 1e-8.
    assert abs(r["x"][-1] - (1.5 - 0.5 * math.exp(-4.0))) < 1e-8
    assert abs(r["y"][-1] - (4.5 - 0.5 * math.exp(-4.0))) < 1e-8


def test_the_bouncing_ball_fmu_first_impact_is_at_sqrt_2h_over_g():
    r = hdae.simulate(hdae.load_fmu(fmu("bouncing_ball")), stop=1.0, rtol=1e-10)
    first = next(e for e in r.events if e.jumps)
    # Free fall from 1 m: t1 = sqrt(2 h0 / g); see tests/fmi/test_fmi_events.cpp for the bound.
    assert abs(first.t - math.sqrt(2.0 / 9.81)) < 1e-7


def test_an_fmu_without_a_binary_raises_io_error_naming_it():
    with pytest.raises(hdae.IoError, match="FMU 'missing_binary.fmu' has no binary"):
        hdae.load_fmu(fmu("missing_binary"))


def test_an_unknown_parameter_raises_model_error():
    with pytest.raises(hdae.ModelError, match="no_such"):
        hdae.load_fmu(fmu("decay"), no_such=1.0)


def test_a_co_simulation_fmu_is_refused_naming_the_missing_interface():
    # Python runs FMUs through the simulator, which needs the Model Exchange interface;
    # decay_cs has only <CoSimulation> (hdae run steps such an FMU itself).
    with pytest.raises(hdae.IoError, match="no <ModelExchange> element"):
        hdae.load_fmu(fmu("decay_cs"))


def test_an_fmu_with_both_interfaces_loads_as_model_exchange():
    decay = hdae.load_fmu(fmu("decay_both"), k=2.0, u=3.0)
    r = hdae.simulate(decay, stop=2.0, rtol=1e-10)
    # The closed form of the first test: x = u/k + (1 - u/k) exp(-k t).
    assert abs(r["x"][-1] - (1.5 - 0.5 * math.exp(-4.0))) < 1e-8
