"""Models written in Python for the tests, each with a known answer."""

import math

import hdae


class Decay(hdae.Model):
    """x' = -x/T, x(0) = x0: x(t) = x0 exp(-t/T); output y = 2 x. After t = fail_after its
    evaluate raises failure (an exception type, DecayBroke by default)."""

    def __init__(self, T=2.0, x0=1.0, fail_after=None, failure=None):
        super().__init__("decay")
        if not T > 0:
            raise ValueError(f"Decay: T must be > 0, got {T}")
        self.T = T
        self.fail_after = fail_after
        self.failure = failure or DecayBroke
        self.x = self.declare_variable("x", unit="m", start=x0)
        self.eq = self.declare_equation("der(x) = -x/T")
        self.y = self.declare_output("y", "m")

    def evaluate(self, e):
        if self.fail_after is not None and e.t > self.fail_after:
            raise self.failure(f"decay broke at t = {e.t}")
        e.set(self.eq, e.der(self.x) + e.x(self.x) / self.T)
        if e.wants_outputs:
            e.set(self.y, 2.0 * e.x(self.x))


class DecayBroke(Exception):
    """An exception type of the model's own, to see that it survives the engine."""


class Ball(hdae.Model):
    """A ball dropped from h0 onto the floor, v := -e v at each impact (a state event)."""

    def __init__(self, h0=1.0, e=0.5, g=9.81):
        super().__init__("ball")
        self.e, self.g = e, g
        self.h = self.declare_variable("h", unit="m", start=h0)
        self.v = self.declare_variable("v", unit="m/s")
        self.dh = self.declare_equation("der(h) = v")
        self.dv = self.declare_equation("der(v) = -g")
        self.floor = self.declare_crossing("h < 0", hdae.CrossingDirection.rising)

    def evaluate(self, e):
        e.negative(self.floor, e.x(self.h))
        e.set(self.dh, e.der(self.h) - e.x(self.v))
        e.set(self.dv, e.der(self.v) + self.g)

    def on_event(self, ev):
        if ev.rose(self.floor):
            ev.set(self.v, -self.e * ev.x(self.v))


def first_impact(h0=1.0, g=9.81):
    """Free fall from h0: h0 = g t^2 / 2 at the impact."""
    return math.sqrt(2.0 * h0 / g)
