"""Models written in Python, checked against closed-form solutions."""

import math
import traceback

import numpy as np
import pytest

import hdae
from models_for_tests import Ball, Decay, DecayBroke, first_impact


def test_decay_follows_the_exponential():
    # x' = -x/T with x(0) = 1 has the solution exp(-t/T); at rel_tol 1e-8 every output row
    # must agree to about 1e-7.
    r = hdae.simulate(Decay(T=2.0), stop=3.0, rtol=1e-8, output_interval=0.01)
    assert r.status.outcome == "reached stop time" and r.status.ok
    t = r.time
    assert len(t) == 301 and t[-1] == pytest.approx(3.0)
    assert np.max(np.abs(r["x"] - np.exp(-t / 2.0))) < 1e-7
    assert np.allclose(r["y"], 2.0 * r["x"], rtol=0, atol=1e-12)
    assert r.units["x"] == "m" and r.kinds["der(x)"] == "derivative"
    # der(x) = -x/T on every row; der(x) between steps comes from IDA's interpolating
    # polynomial, one order less accurate than x.
    assert np.max(np.abs(r["der(x)"] + r["x"] / 2.0)) < 1e-6


def test_ball_hits_the_floor_after_free_fall_time():
    r = hdae.simulate(Ball(h0=1.0, e=0.5), stop=1.2, rtol=1e-8, output_interval=0.01)
    impacts = [ev for ev in r.events if ev.kind == "state"]
    # Impacts at t1 = sqrt(2 h0/g) and t1 + 2 e v1/g with v1 = g t1 (the rebound's flight).
    t1 = first_impact(1.0)
    assert impacts[0].t == pytest.approx(t1, abs=1e-6)
    assert impacts[1].t == pytest.approx(t1 + 2 * 0.5 * t1, abs=1e-6)
    jump = {j.variable: j for j in impacts[0].jumps}["v"]
    assert jump.before == pytest.approx(-9.81 * t1, rel=1e-6)
    assert jump.after == pytest.approx(0.5 * 9.81 * t1, rel=1e-6)
    assert impacts[0].crossings[0].crossing == "h < 0"
    # Both limits of the impact are rows with equal time: left limit first.
    df = r.to_pandas()
    at = df[df["time"] == impacts[0].t]
    assert len(at) == 2
    assert at["v"].iloc[0] == pytest.approx(jump.before) and at["v"].iloc[1] == pytest.approx(
        jump.after)


def test_exception_keeps_type_traceback_and_partial_result():
    model = Decay(T=1.0, fail_after=0.5)
    with pytest.raises(DecayBroke) as info:
        hdae.simulate(model, stop=2.0, output_interval=0.1)
    error = info.value
    frames = [f.name for f in traceback.extract_tb(error.__traceback__)]
    assert "evaluate" in frames  # the Python frame that raised is still there
    partial = error.partial_result
    assert partial.status.outcome == "model failure"
    assert "failed in integration" in partial.status.message
    assert any("model 'decay' failed in" in n for n in getattr(error, "__notes__", []))
    # The rows up to the failure are kept; x follows exp(-t) there.
    t = partial.time
    assert 5 <= len(t) and t[-1] <= 0.6
    assert np.max(np.abs(partial["x"] - np.exp(-t))) < 1e-5


def test_exception_in_on_event_names_the_event_handler():
    class Bad(Ball):
        def on_event(self, ev):
            if ev.rose(self.floor):
                raise KeyError("no floor here")

    with pytest.raises(KeyError) as info:
        hdae.simulate(Bad(), stop=1.0)
    partial = info.value.partial_result
    assert "failed in event handler" in partial.status.message
    assert partial.time[-1] == pytest.approx(first_impact(), abs=1e-6)


def test_missing_evaluate_is_a_clear_error():
    class Empty(hdae.Model):
        def __init__(self):
            super().__init__("empty")
            self.x = self.declare_variable("x")
            self.eq = self.declare_equation("der(x) = 0")

    with pytest.raises(hdae.ModelError, match=r"model .empty. \(Empty\) defines no evaluate"):
        hdae.simulate(Empty(), stop=1.0)


def test_handle_of_another_model_is_rejected():
    other = Ball()

    class Wrong(Decay):
        def evaluate(self, e):
            e.set(other.dv, 0.0)  # equation 1 of the ball; this model has only equation 0

    with pytest.raises(hdae.ModelError, match="equation handle 1 is out of range"):
        hdae.simulate(Wrong(), stop=1.0)


def test_a_kept_evaluation_cannot_be_used_later():
    kept = []

    class Keeper(Decay):
        def evaluate(self, e):
            kept.append(e)
            super().evaluate(e)

    hdae.simulate(Keeper(), stop=0.1)
    with pytest.raises(RuntimeError, match="kept beyond the evaluate"):
        kept[0].x(Keeper().x)


def test_duplicate_variable_is_a_model_error():
    class Twice(hdae.Model):
        def __init__(self):
            super().__init__("twice")
            self.declare_variable("x")
            self.declare_variable("x")
            self.declare_equation("a")
            self.declare_equation("b")

        def evaluate(self, e):
            pass

    with pytest.raises(hdae.ModelError, match="'x'"):
        hdae.simulate(Twice(), stop=1.0)


def test_time_event_and_terminate():
    class Timer(Decay):
        def __init__(self):
            super().__init__(T=1.0)
            self.kick = self.declare_time_event("kick")

        def on_event(self, ev):
            if ev.is_initial:
                ev.schedule(self.kick, 0.5)
            elif ev.fired(self.kick):
                ev.set(self.x, 1.0)  # back to the start: x = exp(-(t - 0.5)) afterwards
                ev.terminate("kicked once")

    r = hdae.simulate(Timer(), stop=2.0, rtol=1e-8)
    assert r.status.outcome == "stopped by model" and r.status.message == "kicked once"
    kick = r.events[1]  # its kind is "terminal": the model ended the run at this event
    assert kick.t == pytest.approx(0.5) and kick.time_events == ["kick"]
    assert kick.jumps[0].before == pytest.approx(math.exp(-0.5), rel=1e-6)
    assert kick.jumps[0].after == 1.0


def test_one_model_in_two_concurrent_runs_is_refused():
    # Two threads run the same Python model (sleep releases the GIL inside evaluate): the run
    # that starts second finds the model claimed by the first and is refused; should the runs
    # ever get past that, the model's views detect the interleaved callbacks. Each run either
    # completes or fails with one of those messages.
    import threading
    import time

    class Sleepy(Decay):
        def evaluate(self, e):
            time.sleep(0.001)
            super().evaluate(e)

    model = Sleepy(T=1.0)
    outcomes = []

    def run():
        try:
            r = hdae.simulate(model, stop=1.0)
            outcomes.append(r.status.outcome)
        except (hdae.ModelError, hdae.ModelCallbackError) as error:
            assert "already in use by another run" in str(
                error
            ) or "evaluated by two runs at the same time" in str(error)
            outcomes.append("refused")

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert "refused" in outcomes and len(outcomes) == 2


class Switches(hdae.Model):
    """Only a source of handles: six crossings and a time event."""

    def __init__(self):
        super().__init__("switches")
        self.c = [self.declare_crossing(f"c{i}") for i in range(6)]
        self.te = self.declare_time_event("te")


def test_crossing_and_time_event_handles_of_another_model_are_rejected():
    # Checked in the bindings in every build type: crossing 5 of a model with one crossing
    # would index past the engine's crossing table (a crash, or another crossing's state).
    other = Switches()

    class CrossingOfAnother(Ball):
        def evaluate(self, e):
            e.negative(other.c[5], e.x(self.h))

    class RoseOfAnother(Ball):
        def on_event(self, ev):
            ev.rose(other.c[1])

    class ScheduleOfAnother(Ball):
        def on_event(self, ev):
            ev.schedule(other.te, 1.0)

    cases = [(CrossingOfAnother, "crossing handle 5 is out of range: the model declares 1 "
                                 "crossing"),
             (RoseOfAnother, "crossing handle 1 is out of range: the model declares 1 crossing"),
             (ScheduleOfAnother, "time event handle 0 is out of range: the model declares 0 "
                                 "time events")]
    for model, message in cases:
        with pytest.raises(hdae.ModelError) as info:
            hdae.simulate(model(), stop=1.0)
        assert str(info.value) == message + " (a handle of another model, or one made by hand?)"
