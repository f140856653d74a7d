"""The integrator option (method=): explicit ODEs on CVODE and ARKODE from Python, with the
ball's impact times against their closed form."""
import math

import pytest

import hdae
from models_for_tests import Ball


def exact_impacts(count, h0=1.0, e=0.5, g=9.81):
    # Free fall from h0: t1 = sqrt(2 h0 / g); the rebound after impact k flies 2 e^k v1 / g.
    t1 = math.sqrt(2 * h0 / g)
    v1 = g * t1
    times = [t1]
    for k in range(1, count):
        times.append(times[-1] + 2 * e ** k * v1 / g)
    return times


@pytest.mark.parametrize("method, integrator", [("erk", "arkode-erk"), ("adams", "cvode-adams"),
                                                ("bdf", "cvode-bdf"), ("auto", "arkode-erk")])
def test_the_ball_on_each_ode_method_hits_the_ground_on_time(method, integrator):
    r = hdae.simulate(Ball(), stop=1.2, rtol=1e-8, method=method)
    assert r.statistics["integrator"] == integrator
    impacts = [ev.t for ev in r.events if ev.kind == "state"]
    exact = exact_impacts(len(impacts))
    assert len(impacts) == 3
    # A height error of ~100 rtol moves a root by about 100 rtol / v at impact speed v >= 1.1.
    for t, t_exact in zip(impacts, exact):
        assert abs(t - t_exact) < 2e-6


def test_an_unknown_method_is_refused_naming_the_option():
    with pytest.raises(ValueError, match="option method must be one of 'ida', 'auto', 'bdf', "
                                         "'adams', 'erk'"):
        hdae.simulate(Ball(), method="rk45")
