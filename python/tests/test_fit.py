"""hdae.fit recovers parameters from noisy synthetic measurements, through events: the ideal
clutch's J2 (a jump at t0 and a release) and the bouncing ball's restitution (impacts)."""

import numpy as np
import pytest

import hdae


def synthetic(model, columns, times, sigma, seed, **options):
    """Measurements of columns at times from a run of model, with Gaussian noise sigma."""
    r = hdae.simulate(model, stop=float(times[-1]), output_times=list(times), **options)
    rng = np.random.default_rng(seed)
    last = {t: k for k, t in enumerate(r.time)}
    rows = [last[t] for t in times]
    data = {"time": times}
    for c in columns:
        data[c] = r[c][rows] + rng.normal(0.0, sigma, len(times))
    return data


def test_the_clutchs_second_inertia_is_recovered_within_its_confidence_interval():
    truth = hdae.models.IdealClutch(J2=0.4, release=2.0)
    times = np.linspace(0.1, 4.0, 40)
    data = synthetic(truth, ["w1", "w2"], times, sigma=0.01, seed=1, rtol=1e-8)
    model = hdae.models.IdealClutch(J2=0.3, release=2.0)
    found = hdae.fit(model, data, ["J2"], rtol=1e-8)
    # The noise is known (sigma = 0.01): the estimate lies within 3 standard errors of the
    # truth (a 0.3 % chance otherwise), the estimated noise near sigma, and the interval holds
    # the truth at its 95 % level for this seed.
    assert abs(found.parameters["J2"] - 0.4) < 3 * found.standard_errors["J2"]
    assert found.residual_std == pytest.approx(0.01, rel=0.3)
    low, high = found.confidence_intervals["J2"]
    assert low < 0.4 < high
    assert model.parameter("J2") == found.parameters["J2"]


def test_the_balls_restitution_is_recovered_from_heights_over_three_bounces():
    # v_rest = 0: the ball never comes to rest, a rule whose flag the run's handler calls at
    # nearby points could not differentiate; over 1.5 s it bounces three times.
    truth = hdae.models.BouncingBall(e=0.8, v_rest=0.0)
    times = np.linspace(0.05, 1.5, 60)
    data = synthetic(truth, ["h"], times, sigma=0.005, seed=2, rtol=1e-8)
    found = hdae.fit(hdae.models.BouncingBall(e=0.7, v_rest=0.0), data, ["e"], rtol=1e-8)
    # As above: within 3 standard errors of the truth, and the error small for 60 heights.
    assert abs(found.parameters["e"] - 0.8) < 3 * found.standard_errors["e"]
    assert found.standard_errors["e"] < 0.01


def test_fit_names_what_is_wrong_with_its_input():
    model = hdae.models.BouncingBall()
    with pytest.raises(ValueError, match="has no parameter 'q'"):
        hdae.fit(model, {"time": [0.1], "h": [0.9]}, ["q"])
    with pytest.raises(ValueError, match="strictly increasing"):
        hdae.fit(model, {"time": [0.2, 0.1], "h": [0.9, 0.8]}, ["e"])
    with pytest.raises(ValueError, match="has 1 values for 2 times"):
        hdae.fit(model, {"time": [0.1, 0.2], "h": [0.9]}, ["e"])
