"""Sensitivities from Python: hdae.simulate(..., sensitivities=[...]) and
Result.sensitivity(column, name), against the pendulum's linearisation."""

import math

import pytest

import hdae


def test_small_swing_sensitivity_to_the_start_angle_follows_the_linear_pendulum():
    # Swinging 1e-3 rad without damping, the pendulum is linear to 1e-7 relative:
    # phi(t) = phi0 cos(w t) with w = sqrt(g / L), so d(phi)/d(phi0) = cos(w t), and
    # d(phi)/d(L) = phi0 sin(w t) t w / (2 L) (from dw/dL = -w / (2 L)).
    pendulum = hdae.models.Pendulum(phi_start=1e-3, d=0.0)
    r = hdae.simulate(pendulum, stop=2.0, rtol=1e-9, output_interval=0.5,
                      sensitivities=["phi_start", "L"])
    w = math.sqrt(9.81 / 0.5)
    for k, t in enumerate(r.time):
        # The linearisation's own error bounds the agreement: the swing's frequency is lower by
        # phi0^2 / 16 relative, which over the few periods here leaves about 1e-6 relative.
        assert r.sensitivity("phi", "phi_start")[k] == pytest.approx(math.cos(w * t), abs=1e-5)
        expected = 1e-3 * math.sin(w * t) * t * w / (2 * 0.5)
        assert r.sensitivity("phi", "L")[k] == pytest.approx(expected, rel=1e-5, abs=1e-12)


def test_unknown_sensitivity_names_are_errors_naming_them():
    with pytest.raises(hdae.OptionError, match="has no parameter 'q'"):
        hdae.simulate(hdae.models.Pendulum(), sensitivities=["q"])
    r = hdae.simulate(hdae.models.Pendulum(), stop=0.1)
    with pytest.raises(KeyError, match=r"no column 'd\(phi\)/d\(L\)'"):
        r.sensitivity("phi", "L")


def test_the_event_log_says_how_the_impact_time_moves():
    # Dropped from h0 under g the ball hits at t1 = sqrt(2 h0 / g): dt1/dh0 = 1 / sqrt(2 g h0),
    # and the restitution e does not move the first impact.
    g, h0 = 9.81, 1.0
    r = hdae.simulate(hdae.models.BouncingBall(), stop=0.6, rtol=1e-9,
                      sensitivities=["e", "h_start"])
    impact = next(ev for ev in r.events if ev.kind == "state")
    assert impact.t == pytest.approx(math.sqrt(2 * h0 / g), rel=1e-8)
    by_name = {d.sensitivity: d.value for d in impact.time_sensitivities}
    assert by_name["h_start"] == pytest.approx(1 / math.sqrt(2 * g * h0), rel=1e-6)
    assert by_name["e"] == pytest.approx(0.0, abs=1e-6)
    assert "d(t)/d(h_start)" in repr(impact.time_sensitivities[1])
