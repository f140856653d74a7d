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


class ImpactBall(hdae.Model):
    """A ball dropped from h0 onto the floor, the contact force the derivative of an integral
    state p: free, der(p) = 0; in the impact pass the restitution law 0 = v + e v^-, on the
    velocity before the jump as left_limit gives it."""

    def __init__(self, h0=1.0, e=0.5, g=9.81):
        super().__init__("impact_ball")
        self.g = g
        self.e = self.declare_parameter("e", value=e, min=0.0, max=1.0)
        self.h = self.declare_variable("h", unit="m", start=h0)
        self.v = self.declare_variable("v", unit="m/s")
        self.p = self.declare_variable("p", unit="N.s/kg")
        self.dh = self.declare_equation("der(h) = v")
        self.dv = self.declare_equation("der(v) = -g + der(p)")
        self.contact = self.declare_equation("impact: 0 = v + e*v^-; free: der(p) = 0")
        self.floor = self.declare_crossing("h < 0", hdae.CrossingDirection.rising)
        self.impact = False

    def reset(self):
        self.impact = False

    def evaluate(self, e):
        e.negative(self.floor, e.x(self.h))
        e.set(self.dh, e.der(self.h) - e.x(self.v))
        e.set(self.dv, e.der(self.v) + self.g - e.der(self.p))
        if self.impact:
            e.set(self.contact, e.x(self.v) + self.value(self.e) * e.left_limit(self.v))
        else:
            e.set(self.contact, e.der(self.p))

    def on_event(self, ev):
        if self.impact:
            self.impact = False
            ev.set_row_kind(self.contact, hdae.RowKind.differential)
        if ev.rose(self.floor) and ev.x(self.v) < 0.0:
            self.impact = True
            ev.set_row_kind(self.contact, hdae.RowKind.constraint)
            ev.request_iteration()


def test_a_restitution_law_on_left_limits_carries_the_sensitivities_through_the_impact():
    # Dropped from h0 = 1 m the ball hits at t1 = sqrt(2 h0 / g) with v^- = -sqrt(2 g h0) and
    # leaves with v^+ = e sqrt(2 g h0); until the next impact v = v^+ - g (t - t1) and
    # h = v^+ (t - t1) - g (t - t1)^2 / 2, so d(v)/d(e) = sqrt(2 g h0) and
    # d(h)/d(e) = sqrt(2 g h0) (t - t1) (t1 does not depend on e).
    g, h0, e = 9.81, 1.0, 0.5
    r = hdae.simulate(ImpactBall(h0, e, g), stop=0.8, rtol=1e-9, output_interval=0.1,
                      sensitivities=["e"])
    t1, speed = math.sqrt(2 * h0 / g), math.sqrt(2 * g * h0)
    for k, t in enumerate(r.time):
        if not t > t1 + 1e-9:
            continue
        assert r.column("v")[k] == pytest.approx(e * speed - g * (t - t1), rel=1e-6, abs=1e-8)
        assert r.sensitivity("v", "e")[k] == pytest.approx(speed, rel=1e-5)
        assert r.sensitivity("h", "e")[k] == pytest.approx(speed * (t - t1), rel=1e-5)
