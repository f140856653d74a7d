"""The bundled models from Python (hdae.models), and run-time parameters."""

import math
import pickle

import numpy as np
import pytest

import hdae


def shared_speed(J2, J1=0.1, k=0.25, C=2.0, w2=10.0):
    """Speed of both shafts right after the clutch locks at t = 0, from the conservation of
    (J1 + k^2 C) w1 + J2 w2 (the capacitor acts as inertia k^2 C on shaft 1; w1 = 0 before)."""
    return J2 * w2 / (J1 + k * k * C + J2)


def test_catalog_has_a_factory_per_model():
    names = hdae.models.names()
    assert "ideal_clutch" in names and "bouncing_ball" in names and len(names) == 25
    for name in names:
        factory = getattr(hdae.models, "".join(p.capitalize() for p in name.split("_")))
        assert factory.__module__ == "hdae.models"
        assert pickle.loads(pickle.dumps(factory)) is factory  # sent to Dask workers by name
    assert "J2 = 0.4 kg.m2" in hdae.models.IdealClutch.__doc__


def test_clutch_shares_the_speed_that_momentum_conservation_gives():
    default = hdae.simulate(hdae.models.IdealClutch(), stop=1.0, rtol=1e-8)
    assert default["w1"][1] == pytest.approx(6.4, abs=1e-6)  # the published 6.4 rad/s
    model = hdae.models.IdealClutch(J2=0.5)
    assert model.parameters["J2"] == 0.5 and model.parameter("J1") == 0.1
    r = hdae.simulate(model, stop=500, rtol=1e-8)
    assert r.status.ok and r.parameters == model.parameters and r.parameters["J2"] == 0.5
    w = shared_speed(0.5)  # 5 / 0.725 = 6.896551...
    assert r["w1"][1] == pytest.approx(w, abs=1e-6) and r["w2"][1] == pytest.approx(w, abs=1e-6)
    jumps = {j.variable: j for j in r.events[0].jumps}
    # The angular impulse on shaft 2 is J2 (w - 10): the jump of tau_int.
    assert jumps["tau_int"].after - jumps["tau_int"].before == pytest.approx(0.5 * (w - 10.0),
                                                                             abs=1e-6)
    # Released at 100 s, engaged again at 300 s: time events at those instants.
    times = [e.t for e in r.events if e.kind == "time"]
    assert times == pytest.approx([100.0, 300.0])


def test_an_impact_source_reports_its_impulse():
    # Two masses, m = (1, 2) kg, e = 0.8, closing at 1 m/s: the impulse on mass 2 is
    # m1 m2 (1 + e) u / (m1 + m2) = 1.2 N s (models/colliding_masses.hpp), momentum 1 kept.
    r = hdae.simulate(hdae.models.CollidingMassesImpact(), stop=2.0, rtol=1e-8)
    assert r.status.ok
    impacts = [e for e in r.events if e.kind == "state"]
    assert len(impacts) == 1
    impulses = {i.variable: i.integral for i in impacts[0].impulses}
    assert impulses["F"] == pytest.approx(1.2, rel=1e-12)
    jumps = {j.variable: j for j in impacts[0].jumps}
    assert jumps["v1"].after == pytest.approx(-0.2, abs=1e-12)
    assert jumps["v2"].after == pytest.approx(0.6, abs=1e-12)


def test_bad_parameters_raise_value_errors_naming_them():
    with pytest.raises(hdae.ModelError, match="J3") as info:
        hdae.models.IdealClutch(J3=1.0)
    assert isinstance(info.value, ValueError)
    assert "J2" in str(info.value)  # the known names are listed
    with pytest.raises(ValueError, match="J2"):
        hdae.models.IdealClutch(J2=-1.0)
    with pytest.raises(TypeError, match="parameter J2 must be a number"):
        hdae.models.IdealClutch(J2="heavy")
    with pytest.raises(ValueError, match="no bundled model 'clutch'"):
        hdae.models.make("clutch")


class Decay(hdae.Model):
    """x' = -x/T with a declared parameter T; y0 = x(0) follows the parameter x0."""

    def __init__(self):
        super().__init__("decay")
        self.T = self.declare_parameter("T", unit="s", value=2.0, min=1e-9,
                                        description="time constant")
        self.x0 = self.declare_parameter("x0", value=1.0)
        self.x = self.declare_variable("x", start=1.0)
        self.eq = self.declare_equation("der(x) = -x/T")
        self.changes = 0

    def parameters_changed(self):
        if self.value(self.x0) > 100:
            raise hdae.ModelError("x0 must be at most 100")
        self.set_start(self.x, self.value(self.x0))
        self.changes += 1

    def evaluate(self, e):
        e.set(self.eq, e.der(self.x) + e.x(self.x) / self.value(self.T))


def test_python_model_parameters():
    model = Decay()
    assert model.parameters == {"T": 2.0, "x0": 1.0}
    info = model.parameter_info[0]
    assert (info.name, info.unit, info.min, info.description) == ("T", "s", 1e-9,
                                                                 "time constant")
    model.set_parameter("T", 4.0)
    model.set_parameter("x0", 3.0)
    assert model.changes == 2
    r = hdae.simulate(model, stop=2.0, rtol=1e-8)
    assert r.parameters == {"T": 4.0, "x0": 3.0}
    # x(t) = x0 exp(-t/T) = 3 exp(-2/4).
    assert r["x"][-1] == pytest.approx(3.0 * math.exp(-0.5), rel=1e-6)
    with pytest.raises(hdae.ModelError, match="T"):
        model.set_parameter("T", -1.0)  # below min
    with pytest.raises(hdae.ModelError, match="x0 must be at most 100"):
        model.set_parameter("x0", 1000.0)
    assert model.parameters == {"T": 4.0, "x0": 3.0}  # the rejected value was rolled back


def test_sweep_over_a_bundled_model_and_a_failing_point():
    from dask.distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                      dashboard_address=":0") as cluster, Client(cluster) as client:
        table = hdae.sweep(hdae.models.IdealClutch, {"J2": [0.2, 0.4, -1.0, 0.8]},
                           client=client, summary=lambda r: {"w_shared": r["w1"][1]},
                           stop=1.0, rtol=1e-8)
    assert list(table["status"]) == ["reached stop time"] * 2 + ["error", "reached stop time"]
    assert "J2" in table["message"][2] and table["message"][2].startswith("ModelError")
    ok = table[table["status"] != "error"]
    assert np.allclose(ok["w_shared"], [shared_speed(j) for j in ok["J2"]], atol=1e-6)


def test_sweep_reports_a_chattering_point():
    from dask.distributed import Client, LocalCluster

    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                      dashboard_address=":0") as cluster, Client(cluster) as client:
        table = hdae.sweep(hdae.models.BouncingBall, [{"v_rest": 0.01}, {"v_rest": 0.0}],
                           client=client, outputs=["h"], stop=5.0, log_level="off")
    assert list(table["status"]) == ["reached stop time", "chattering"]
    # Without the rest rule the impacts accumulate at t1 (1 + e)/(1 - e), t1 = sqrt(2 h0/g),
    # e = 0.7 (the model's header); the run stops just before.
    accumulation = math.sqrt(2.0 / 9.81) * 1.7 / 0.3
    assert "Zeno" in table["message"][1]
    assert accumulation - 0.01 < table["t_end"][1] < accumulation
    assert table["h"][0] == pytest.approx(0.0, abs=1e-6)  # at rest on the floor


def test_result_files_carry_the_parameters(tmp_path):
    r = hdae.simulate(hdae.models.IdealClutch(J2=0.5), stop=1.0)
    files = r.write_csv(tmp_path / "clutch.csv")
    assert files[-1].name == "clutch.params.csv"
    lines = (tmp_path / "clutch.params.csv").read_text().splitlines()
    assert lines[0] == "name,value,unit" and "J2,0.5,kg.m2" in lines
