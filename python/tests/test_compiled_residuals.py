"""The numba form of a model written in Python: a cfunc set with set_compiled_residual, called
from C++ without the GIL. Known answers as in test_vector_residuals.py: the oscillator's closed
form, the bundled C++ chain of masses, the bouncing ball's impact times in free fall. CI
installs python3-numba; without it these tests are skipped, saying why."""

import numpy as np
import pytest

import hdae
from test_vector_residuals import (W, NumpyBall, NumpyOscillator, ball_impacts,
                                   chain_declarations, state_event_times)

numba = pytest.importorskip("numba", reason="numba is not installed (Debian: python3-numba)")


@numba.cfunc(hdae.compiled_residual_signature())
def oscillator_residual(t, x, der_x, r, p, n):
    w = p[0]
    r[0] = der_x[0] - x[1]
    r[1] = der_x[1] + w * w * x[0]


@numba.cfunc(hdae.compiled_residual_signature())
def chain_residual(t, x, der_x, r, p, n):
    masses = n // 3
    for i in range(masses):
        s, v, f = x[3 * i], x[3 * i + 1], x[3 * i + 2]
        f_next = x[3 * i + 5] if i + 1 < masses else 0.0
        s_prev = x[3 * i - 3] if i > 0 else 0.0
        r[3 * i] = der_x[3 * i] - v
        r[3 * i + 1] = der_x[3 * i + 1] + f - f_next + 0.5 * v
        r[3 * i + 2] = f - 100.0 * (s - s_prev)


@numba.cfunc(hdae.compiled_residual_signature())
def ball_residual(t, x, der_x, r, p, n):
    r[0] = der_x[0] - x[1]
    r[1] = der_x[1] + 9.81


class CompiledOscillator(hdae.Model):
    def __init__(self):
        super().__init__("compiled_oscillator")
        self.declare_parameter("w", value=W)
        self.declare_variable("x", start=1.0)
        self.declare_variable("v", start=0.0)
        self.declare_equation("der(x) = v")
        self.declare_equation("der(v) = -w^2 x")
        self.set_compiled_residual(oscillator_residual)


class CompiledChain(hdae.Model):
    def __init__(self, n):
        super().__init__("compiled_chain")
        chain_declarations(self, n)
        self.set_compiled_residual(chain_residual)


class CompiledBall(NumpyBall):
    """NumpyBall with its rows compiled; evaluate_crossings and on_event stay in Python."""

    residual = None

    def __init__(self, e=0.5):
        super().__init__(e)
        self.set_compiled_residual(ball_residual)


def test_a_compiled_residual_follows_the_oscillators_closed_form_and_its_parameter():
    model = CompiledOscillator()
    model.set_parameter("w", 3.0)  # read through p on every call
    r = hdae.simulate(model, stop=5.0, rtol=1e-10)
    # As for the numpy form: IDA's error at rtol 1e-10 is far below 1e-6.
    assert np.max(np.abs(r["x"] - np.cos(3.0 * r.time))) < 1e-6


def test_a_compiled_chain_agrees_with_the_bundled_chain_written_in_cpp():
    n = 10
    mine = hdae.simulate(CompiledChain(n), stop=2.0, rtol=1e-9)
    bundled = hdae.simulate(hdae.models.MassSpringChain(N=n), stop=2.0, rtol=1e-9)
    for name in ("s[1]", f"s[{n}]", f"v[{n}]", "f[3]"):
        assert mine[name][-1] == pytest.approx(bundled[name][-1], abs=1e-6), name


def test_a_compiled_residual_with_python_crossings_finds_the_balls_impacts():
    r = hdae.simulate(CompiledBall(e=0.7), stop=2.0, rtol=1e-9)
    found = state_event_times(r)
    assert len(found) >= 4
    assert found == pytest.approx(ball_impacts(0.7, len(found)), abs=1e-6)


def test_set_compiled_residual_names_what_is_wrong():
    model = NumpyOscillator()
    with pytest.raises(TypeError, match=r"expects a numba cfunc .* got builtins.function"):
        model.set_compiled_residual(lambda t, x, der_x, r, p, n: None)

    @numba.cfunc("void(float64, CPointer(float64), CPointer(float64), CPointer(float64), intp)")
    def no_parameters(t, x, der_x, r, n):
        pass

    with pytest.raises(TypeError, match=r"has the signature .* expected .*\(t, x, der_x, r, p, n\)"):
        model.set_compiled_residual(no_parameters)
    model.declare_variable("extra")
    with pytest.raises(hdae.ModelError, match="declares 3 unknowns and 2 equations"):
        model.set_compiled_residual(oscillator_residual)
