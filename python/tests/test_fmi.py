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


def test_model_exchange_asked_of_a_co_simulation_fmu_is_refused_naming_the_missing_interface():
    # decay_cs has only <CoSimulation>.
    with pytest.raises(hdae.IoError, match="no <ModelExchange> element"):
        hdae.load_fmu(fmu("decay_cs"), fmi_interface="me")


def test_a_co_simulation_decay_fmu_steps_itself_to_the_closed_form_at_every_output_time():
    decay = hdae.load_fmu(fmu("decay_cs"), k=2.0, u=3.0)
    r = hdae.simulate(decay, stop=2.0, output_interval=0.1)
    assert r.status.outcome == "reached stop time"
    assert len(r.time) == 21  # t = 0, 0.1, ..., 2
    for t, x, y in zip(r.time, r["x"], r["y"]):
        # x = u/k + (1 - u/k) exp(-k t); the FMU's RK4 substeps of 1e-3 s err by about
        # (k h)^4 / 5! relative to x per unit of time, some 1e-13 here.
        assert abs(x - (1.5 - 0.5 * math.exp(-2.0 * t))) < 1e-10
        assert abs(y - (x + 3.0)) < 1e-14  # the output y = x + u
    assert r.kinds == {"x": "state", "der(x)": "derivative", "y": "output"}
    assert r.events == []


def test_an_fmu_with_both_interfaces_runs_as_co_simulation_when_asked_in_either_spelling():
    for spelling in ("cs", "CoSimulation"):
        decay = hdae.load_fmu(fmu("decay_both"), fmi_interface=spelling, k=2.0, u=3.0)
        r = hdae.simulate(decay, stop=2.0, output_interval=0.5, record_columns=["x"])
        assert list(r.columns) == ["x"]
        assert list(r.time) == [0.0, 0.5, 1.0, 1.5, 2.0]
        # The closed form of the first test.
        assert abs(r["x"][-1] - (1.5 - 0.5 * math.exp(-4.0))) < 1e-10
    with pytest.raises(ValueError, match="fmi_interface='xy': the interfaces are 'me'"):
        hdae.load_fmu(fmu("decay_both"), fmi_interface="xy")


def test_the_events_a_co_simulation_fmu_returns_early_at_are_in_the_event_log():
    # The stair steps up at t = 1, 2, 3, 4 (tests/fmi/fmus/stair/model.c); an output grid of
    # 0.625 s puts each inside a communication step, where the FMU returns early, exactly at
    # the time it announced.
    r = hdae.simulate(hdae.load_fmu(fmu("stair_cs")), stop=4.5, output_interval=0.625)
    assert [e.t for e in r.events] == [1.0, 2.0, 3.0, 4.0]
    # der(x) = u integrates the stair: x(4.5) = 3.5 + 2.5 + 1.5 + 0.5; RK4 is exact for a
    # constant derivative, so only rounding over some 4500 substeps remains.
    assert abs(r["x"][-1] - 8.0) < 1e-10


def test_a_co_simulation_fmu_cannot_be_stepped_by_hdae_simulator():
    with pytest.raises(hdae.ModelError, match="loaded for Co-Simulation: it steps itself"):
        hdae.Simulator(hdae.load_fmu(fmu("decay_cs")))


def test_a_failing_co_simulation_step_raises_model_callback_error_with_the_rows_so_far():
    with pytest.raises(hdae.ModelCallbackError, match="fmi3DoStep returned fmi3Error") as caught:
        hdae.simulate(hdae.load_fmu(fmu("function_error_cs")), stop=1.0, output_interval=0.1)
    # The rate table ends at t = 0.5 (tests/fmi/test_fmi_cosimulation.cpp): the points up to
    # 0.4 were reached, or up to 0.5.
    assert 5 <= len(caught.value.partial_result.time) <= 6


def test_an_fmu_with_both_interfaces_loads_as_model_exchange():
    decay = hdae.load_fmu(fmu("decay_both"), k=2.0, u=3.0)
    r = hdae.simulate(decay, stop=2.0, rtol=1e-10)
    # The closed form of the first test: x = u/k + (1 - u/k) exp(-k t).
    assert abs(r["x"][-1] - (1.5 - 0.5 * math.exp(-4.0))) < 1e-8
