"""The vector forms of a model written in Python: residual(self, t, x, der_x, r) on numpy views,
and a numba cfunc set with set_compiled_residual (called without the GIL). Known answers: the
harmonic oscillator's closed form, the bundled C++ chain of masses (the same equations and start
values, written element by element in C++), and the bouncing ball's impact times in free fall."""

import math

import numpy as np
import pytest

import hdae

W = 2.0  # rad/s, the oscillator's angular frequency


class NumpyOscillator(hdae.Model):
    """x' = v, v' = -w^2 x from (1, 0): x(t) = cos(w t)."""

    def __init__(self):
        super().__init__("oscillator")
        self.w = self.declare_parameter("w", value=W)
        self.declare_variable("x", start=1.0)
        self.declare_variable("v", start=0.0)
        self.declare_equation("der(x) = v")
        self.declare_equation("der(v) = -w^2 x")

    def residual(self, t, x, der_x, r):
        w = self.value(self.w)
        r[0] = der_x[0] - x[1]
        r[1] = der_x[1] + w * w * x[0]


def chain_declarations(model, n):
    """The unknowns and rows of hdae.models.MassSpringChain(N=n), in its order (s, v, f)."""
    for i in range(1, n + 1):
        model.declare_variable(f"s[{i}]", start=i / n)  # s_end = 1 m spread over the springs
        model.declare_variable(f"v[{i}]")
        model.declare_variable(f"f[{i}]", start=100.0 / n)  # k s_end / N
    for i in range(1, n + 1):
        model.declare_equation(f"der(s[{i}]) = v[{i}]")
        model.declare_equation(f"m*der(v[{i}]) = f[{i+1}] - f[{i}] - d*v[{i}]")
        model.declare_equation(f"0 = f[{i}] - k*(s[{i}] - s[{i-1}])", hdae.RowKind.constraint)


class NumpyChain(hdae.Model):
    """The chain of hdae.models.MassSpringChain (m = 1, k = 100, d = 0.5) as numpy rows."""

    def __init__(self, n):
        super().__init__("numpy_chain")
        chain_declarations(self, n)

    def residual(self, t, x, der_x, r):
        s, v, f = x[0::3], x[1::3], x[2::3]
        f_next = np.append(f[1:], 0.0)
        s_prev = np.insert(s[:-1], 0, 0.0)
        r[0::3] = der_x[0::3] - v
        r[1::3] = der_x[1::3] + f - f_next + 0.5 * v
        r[2::3] = f - 100.0 * (s - s_prev)


class NumpyBall(hdae.Model):
    """A ball dropped from 1 m, v := -e v at each impact; residual() with evaluate_crossings()."""

    def __init__(self, e=0.5):
        super().__init__("ball")
        self.e = e
        self.h = self.declare_variable("h", start=1.0)
        self.v = self.declare_variable("v")
        self.declare_equation("der(h) = v")
        self.declare_equation("der(v) = -g")
        self.floor = self.declare_crossing("h < 0", hdae.CrossingDirection.rising)

    def evaluate_crossings(self, e):
        e.negative(self.floor, e.x(self.h))

    def residual(self, t, x, der_x, r):
        r[0] = der_x[0] - x[1]
        r[1] = der_x[1] + 9.81

    def on_event(self, ev):
        if ev.rose(self.floor):
            ev.set(self.v, -self.e * ev.x(self.v))


def ball_impacts(e, count):
    """Free fall from 1 m: t1 = sqrt(2/g), then each flight lasts 2 v_k / g with v_k = e^k g t1."""
    t1 = math.sqrt(2.0 / 9.81)
    times = [t1]
    for k in range(1, count):
        times.append(times[-1] + 2.0 * e ** k * t1)
    return times


def state_event_times(result):
    return [event.t for event in result.events if event.kind == "state"]


def test_a_numpy_residual_follows_the_oscillators_closed_form():
    r = hdae.simulate(NumpyOscillator(), stop=5.0, rtol=1e-10)
    # IDA's global error at rtol 1e-10 over 1.6 periods stays far below 1e-6.
    assert np.max(np.abs(r["x"] - np.cos(W * r.time))) < 1e-6
    assert np.max(np.abs(r["v"] + W * np.sin(W * r.time))) < 1e-6


def test_a_numpy_chain_agrees_with_the_bundled_chain_written_in_cpp():
    n = 10
    mine = hdae.simulate(NumpyChain(n), stop=2.0, rtol=1e-9)
    bundled = hdae.simulate(hdae.models.MassSpringChain(N=n), stop=2.0, rtol=1e-9)
    for name in ("s[1]", f"s[{n}]", f"v[{n}]", "f[3]"):
        # Both integrate the same DAE at rtol 1e-9; their errors are each well below 1e-6.
        assert mine[name][-1] == pytest.approx(bundled[name][-1], abs=1e-6), name


def test_a_numpy_residual_with_crossings_finds_the_balls_impacts():
    r = hdae.simulate(NumpyBall(e=0.7), stop=2.0, rtol=1e-9)
    found = state_event_times(r)
    expected = ball_impacts(0.7, len(found))
    assert len(found) >= 4  # impacts at 0.45, 1.08, 1.53, 1.84 s before 2 s
    # Impacts are located to IDA's root tolerance on a trajectory accurate to about 1e-8.
    assert found == pytest.approx(expected, abs=1e-6)


def test_the_arrays_are_read_only_views_of_the_inputs_and_a_writable_residual():
    seen = {}

    class Probe(NumpyOscillator):
        def residual(self, t, x, der_x, r):
            seen["flags"] = (x.flags.writeable, der_x.flags.writeable, r.flags.writeable)
            seen["shapes"] = (x.shape, der_x.shape, r.shape)
            super().residual(t, x, der_x, r)

    hdae.simulate(Probe(), stop=0.1)
    assert seen["flags"] == (False, False, True)
    assert seen["shapes"] == ((2,), (2,), (2,))


def test_writing_into_x_raises_the_numpy_error_to_the_caller():
    class Writer(NumpyOscillator):
        def residual(self, t, x, der_x, r):
            x[0] = 0.0

    with pytest.raises(ValueError, match="read-only"):
        hdae.simulate(Writer(), stop=0.1)


def test_an_array_kept_beyond_the_call_fails_the_run_and_is_emptied():
    class Keeper(NumpyOscillator):
        def residual(self, t, x, der_x, r):
            self.kept = x
            super().residual(t, x, der_x, r)

    model = Keeper()
    with pytest.raises(hdae.ModelCallbackError, match=r"kept .x. beyond the call"):
        hdae.simulate(model, stop=0.1)
    assert model.kept.shape == (0,)  # nothing left that points into the engine's memory
    assert not model.kept.flags.writeable


def test_an_array_kept_after_many_calls_is_caught_and_the_next_run_works():
    # The three arrays are pointed anew at every call; one kept by the 50th call is still caught,
    # and a fresh array takes its place for the next run, whose result is the plain model's.
    calls = {"n": 0}

    class LateKeeper(NumpyOscillator):
        def residual(self, t, x, der_x, r):
            calls["n"] += 1
            if calls["n"] == 50:
                self.kept = der_x
            super().residual(t, x, der_x, r)

    model = LateKeeper()
    with pytest.raises(hdae.ModelCallbackError, match=r"kept .der_x. beyond the call"):
        hdae.simulate(model, stop=1.0)
    assert model.kept.shape == (0,)
    again = hdae.simulate(model, stop=1.0)
    plain = hdae.simulate(NumpyOscillator(), stop=1.0)
    assert np.array_equal(again.values, plain.values)


def test_each_call_sees_the_vectors_ida_evaluates_at():
    ids = set()

    class Counter(NumpyOscillator):
        def residual(self, t, x, der_x, r):
            ids.add(x.__array_interface__["data"][0])
            super().residual(t, x, der_x, r)

    hdae.simulate(Counter(), stop=0.5)
    assert len(ids) > 1  # IDA evaluates at its own vectors: the views follow them


def test_a_model_with_neither_evaluate_nor_residual_is_named():
    class Empty(hdae.Model):
        def __init__(self):
            super().__init__("empty")
            self.declare_variable("x")
            self.declare_equation("der(x) = 0")

    with pytest.raises(hdae.ModelError, match="defines no evaluate"):
        hdae.simulate(Empty(), stop=0.1)

