"""hdae.sweep on Dask and the Latin-hypercube sampler."""

import math

import numpy as np
import pytest

import hdae
from models_for_tests import Decay


def decay_factory(T, fail_after=None):
    return Decay(T=T, fail_after=fail_after)


@pytest.fixture(scope="module")
def client():
    # Threads: the test module's Python models need not be importable in worker processes.
    from dask.distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                           dashboard_address=":0")
    c = Client(cluster)
    yield c
    c.close()
    cluster.close()


def test_grid_table_equals_single_runs(client, tmp_path):
    table = hdae.sweep(decay_factory, {"T": [0.5, 1.0, 2.0]}, client=client, outputs=["x"],
                       summary=lambda r: {"rows": len(r), "x_min": float(np.min(r["x"]))},
                       results_dir=tmp_path, stop=1.0, rtol=1e-8)
    assert list(table["T"]) == [0.5, 1.0, 2.0]
    assert list(table["status"]) == ["reached stop time"] * 3
    for _, row in table.iterrows():
        single = hdae.simulate(Decay(T=row["T"]), stop=1.0, rtol=1e-8)
        assert row["x"] == single["x"][-1]  # the same run, bit for bit
        assert row["x"] == pytest.approx(math.exp(-1.0 / row["T"]), rel=1e-6)
        assert row["x_min"] == row["x"] and row["rows"] == len(single)
        assert (tmp_path / row["result_file"]).exists()


def test_failing_points_are_reported_and_the_others_complete(client):
    points = [{"T": 1.0}, {"T": -1.0}, {"T": 1.0, "fail_after": 0.3}, {"T": 2.0}]
    table = hdae.sweep(decay_factory, points, client=client, outputs=["x"], stop=1.0)
    assert list(table["status"]) == ["reached stop time", "error", "model failure",
                                     "reached stop time"]
    assert table["message"][1] == "ValueError: Decay: T must be > 0, got -1.0"
    assert table["message"][2].startswith("DecayBroke: decay broke at t = 0.3")
    assert math.isnan(table["x"][1])
    assert table["t_end"][2] == pytest.approx(0.3, abs=0.05)  # the partial result's end
    assert table["x"][3] == pytest.approx(math.exp(-0.5), rel=1e-4)


def test_bad_options_fail_before_any_run(client):
    with pytest.raises(hdae.OptionError, match="rel_tol"):
        hdae.sweep(decay_factory, {"T": [1.0]}, client=client, rtol=-1)


def test_latin_hypercube_puts_one_point_in_each_stratum():
    points = hdae.latin_hypercube({"a": (0.0, 1.0), "b": (10.0, 30.0)}, 8, seed=1)
    assert len(points) == 8
    a = np.array([p["a"] for p in points])
    b = np.array([p["b"] for p in points])
    # Each of the 8 equal strata of each range holds exactly one point.
    assert sorted(np.floor(a * 8).astype(int)) == list(range(8))
    assert sorted(np.floor((b - 10.0) / 20.0 * 8).astype(int)) == list(range(8))
    assert points == hdae.latin_hypercube({"a": (0.0, 1.0), "b": (10.0, 30.0)}, 8, seed=1)
    with pytest.raises(ValueError, match="bounds of 'a'"):
        hdae.latin_hypercube({"a": (1.0, 0.0)}, 4)
    with pytest.raises(ValueError, match="n must be a positive integer"):
        hdae.latin_hypercube({"a": (0.0, 1.0)}, 0)


def test_sweep_connects_to_a_scheduler_address():
    # A scheduler address string, as for a cluster started with `dask scheduler` and
    # `dask worker`: the sweep opens its own Client to it and closes it afterwards.
    from dask.distributed import LocalCluster

    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                      dashboard_address=":0") as cluster:
        table = hdae.sweep(decay_factory, [{"T": 4.0}], client=cluster.scheduler_address,
                           outputs=["x"], stop=2.0, rtol=1e-8)
    # x(2) = exp(-2/4).
    assert table["x"][0] == pytest.approx(math.exp(-0.5), rel=1e-6)


def test_default_cluster_runs_points_in_worker_processes(monkeypatch):
    # client=None: a LocalCluster of two worker processes, closed afterwards. The workers
    # import the factory's module by name, so its folder goes on their PYTHONPATH.
    import os

    tests = os.path.dirname(__file__)
    monkeypatch.setenv("PYTHONPATH", tests + os.pathsep + os.environ.get("PYTHONPATH", ""))
    table = hdae.sweep(decay_factory, {"T": [1.0, 3.0]}, outputs=["x"], stop=3.0, rtol=1e-8,
                       summary=lambda r: {"pid": os.getpid()})
    # x(3) = exp(-3/T).
    assert table["x"].tolist() == pytest.approx([math.exp(-3.0), math.exp(-1.0)], rel=1e-6)
    assert os.getpid() not in set(table["pid"])  # run in other processes
