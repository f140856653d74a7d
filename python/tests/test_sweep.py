"""hdae.sweep on Dask and the Latin-hypercube sampler."""

import math

import numpy as np
import pytest

import hdae
from models_for_tests import Decay


def decay_factory(T, fail_after=None, failure=None):
    return Decay(T=T, fail_after=fail_after, failure=failure)


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


def test_a_client_that_is_no_client_is_named():
    with pytest.raises(TypeError, match="client must be None, a dask.distributed Client or a "
                                        "scheduler address .* not int 5"):
        hdae.sweep(decay_factory, {"T": [1.0]}, client=5)


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


def test_keyboard_interrupt_or_system_exit_of_a_model_fails_only_its_point(client):
    # Raised inside a worker's run, they are that point's failure: without the catch a thread
    # worker's event loop dies (the sweep hangs) and a worker process exits (KilledWorker).
    points = [{"T": 1.0}, {"T": 1.0, "fail_after": 0.5, "failure": KeyboardInterrupt},
              {"T": 1.0, "fail_after": 0.5, "failure": SystemExit}, {"T": 2.0}]
    table = hdae.sweep(decay_factory, points, client=client, outputs=["x"], stop=1.0,
                       rtol=1e-8)
    assert list(table["status"]) == ["reached stop time", "model failure", "model failure",
                                     "reached stop time"]
    assert table["message"][1].startswith("KeyboardInterrupt: decay broke at t = 0.5")
    assert table["message"][2].startswith("SystemExit: decay broke at t = 0.5")
    # x(1) = exp(-1/T) for the points that completed.
    assert table["x"][0] == pytest.approx(math.exp(-1.0), rel=1e-6)
    assert table["x"][3] == pytest.approx(math.exp(-0.5), rel=1e-6)


def test_system_exit_in_a_worker_process_fails_only_its_point(monkeypatch):
    import os

    tests = os.path.dirname(__file__)
    monkeypatch.setenv("PYTHONPATH", tests + os.pathsep + os.environ.get("PYTHONPATH", ""))
    points = [{"T": 1.0, "fail_after": 0.5, "failure": SystemExit}, {"T": 1.0}]
    table = hdae.sweep(decay_factory, points, processes=True, workers=1, progress=False,
                       outputs=["x"], stop=1.0, rtol=1e-8)
    assert list(table["status"]) == ["model failure", "reached stop time"]
    assert table["message"][0].startswith("SystemExit: decay broke at t = 0.5")
    assert table["x"][1] == pytest.approx(math.exp(-1.0), rel=1e-6)  # x(1) = exp(-1/T)


def awkward_summary(r):
    x = float(r["x"][-1])  # exp(-1/T) at t = 1: which point this is
    if 0.7 < x < 0.8:  # T = 4
        import threading

        return {"v": threading.Lock()}  # cannot be pickled
    if 0.5 < x < 0.7:  # T = 2
        return {"v": r}  # a Result
    return {"v": x}


def test_failures_after_the_run_are_reported_in_their_rows(client, tmp_path):
    (tmp_path / "run_0000.csv").mkdir()  # the first point's result file cannot be written
    table = hdae.sweep(decay_factory, {"T": [1.0, 2.0, 4.0, 8.0]}, client=client,
                       outputs=["x"], summary=awkward_summary, results_dir=tmp_path, stop=1.0)
    assert list(table["status"]) == ["reached stop time"] * 4  # the runs themselves completed
    assert table["message"][0] == \
        f"result file not written: IoError: {tmp_path / 'run_0000.csv'}: cannot open for writing"
    assert table["result_file"][0] == ""
    assert table["message"][1] == (
        "summary failed: TypeError: column 'v' cannot be sent back from a worker (TypeError: "
        "cannot pickle 'hdae._hdae.Result' object); return numbers or strings")
    assert table["message"][2] == (
        "summary failed: TypeError: column 'v' cannot be sent back from a worker (TypeError: "
        "cannot pickle '_thread.lock' object); return numbers or strings")
    assert table["message"][3] == ""
    assert math.isnan(table["v"][1]) and math.isnan(table["v"][2])
    assert table["v"][0] == pytest.approx(math.exp(-1.0), rel=1e-3)  # x(1) = exp(-1/T)
    assert table["v"][3] == pytest.approx(math.exp(-1.0 / 8.0), rel=1e-3)
    assert (tmp_path / "run_0003.csv").is_file()


def test_a_task_that_fails_in_dask_itself_gets_an_error_row(client, monkeypatch):
    # A failure outside run_point (a worker that died: KilledWorker; a row that could not be
    # sent back) raises from future.result(); that point's row says so, the others stay.
    import sys

    sweep_module = sys.modules["hdae.sweep"]  # the module; hdae.sweep is the function
    run_point = sweep_module.run_point

    def lost_for_t_2(model_factory, point, *args):
        if point["T"] == 2.0:
            raise RuntimeError("worker lost")
        return run_point(model_factory, point, *args)

    monkeypatch.setattr(sweep_module, "run_point", lost_for_t_2)
    table = hdae.sweep(decay_factory, {"T": [1.0, 2.0, 4.0]}, client=client, outputs=["x"],
                       stop=1.0, rtol=1e-8)
    assert list(table["status"]) == ["reached stop time", "error", "reached stop time"]
    assert table["message"][1] == "RuntimeError: worker lost"
    assert math.isnan(table["x"][1])
    assert table["x"][2] == pytest.approx(math.exp(-0.25), rel=1e-6)  # x(1) = exp(-1/T)


def test_workers_must_be_a_positive_integer():
    for workers in (-1, 0):
        with pytest.raises(ValueError) as info:
            hdae.sweep(decay_factory, {"T": [1.0]}, workers=workers, stop=1.0)
        assert str(info.value) == f"sweep: workers must be a positive integer, got {workers}"
    with pytest.raises(TypeError) as info:
        hdae.sweep(decay_factory, {"T": [1.0]}, workers=1.5, stop=1.0)
    assert str(info.value) == "sweep: workers must be a positive integer, got 1.5"


def test_too_many_points_are_refused_before_any_is_made():
    axis = list(range(10**4))
    with pytest.raises(ValueError) as info:
        hdae.sweep(decay_factory, {"T": axis, "x0": axis, "fail_after": axis}, stop=1.0)
    assert str(info.value) == (
        "grid: 1000000000000 points (10000 x 10000 x 10000) are more than the limit of 1000000 "
        "per sweep (hdae.sweep.MAX_POINTS); split the study into several sweeps")
    assert hdae.sweep.MAX_POINTS == 10**6
    import itertools

    endless = itertools.repeat({"T": 1.0})  # read one point beyond the limit, no further
    with pytest.raises(ValueError, match=r"^sweep: 1000001 points \(at least: the iterator was "
                                         r"read no further\) are more than the limit of 1000000 "):
        hdae.sweep(decay_factory, endless, stop=1.0)
    assert next(endless) == {"T": 1.0}
    with pytest.raises(ValueError, match=r"^latin_hypercube: 10000000 points are more than"):
        hdae.latin_hypercube({"T": (1.0, 2.0)}, n=10**7)


def test_latin_hypercube_takes_numpy_integers_and_the_widest_bounds():
    assert len(hdae.latin_hypercube({"a": (0.0, 1.0)}, n=np.int64(3), seed=1)) == 3
    with pytest.raises(TypeError) as info:
        hdae.latin_hypercube({"a": (0.0, 1.0)}, n=3.0)
    assert str(info.value) == "latin_hypercube: n must be a positive integer, got 3.0"
    # high - low would overflow to inf; every point must be finite and inside the box, one in
    # each of the n equal strata (stratum k of 8 holds x with (x/1.7e308 + 1)/2 in [k/8, (k+1)/8)).
    points = hdae.latin_hypercube({"J2": (-1.7e308, 1.7e308)}, n=8, seed=2)
    x = np.array([p["J2"] for p in points])
    assert np.all(np.isfinite(x)) and np.all(x >= -1.7e308) and np.all(x <= 1.7e308)
    assert sorted(np.floor((x / 1.7e308 + 1.0) / 2.0 * 8).astype(int)) == list(range(8))


ctrl_c_sent = []  # module level: the summary function must pickle to reach the workers


def ctrl_c_once(r):
    import signal
    import threading

    if not ctrl_c_sent:
        ctrl_c_sent.append(True)
        signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)
    return {}


def test_ctrl_c_in_the_calling_process_stops_the_sweep(client):
    # SIGINT to the main thread while it waits for the rows (as Ctrl-C in a terminal) raises
    # KeyboardInterrupt from hdae.sweep; it is not a failure of a point. (Threads: the
    # workers share ctrl_c_sent with this test.)
    with pytest.raises(KeyboardInterrupt):
        hdae.sweep(decay_factory, {"T": [1.0, 2.0, 4.0]}, client=client, summary=ctrl_c_once,
                   stop=1.0)
    assert ctrl_c_sent == [True]


batch_sizes = []  # module level: what the worker threads append is seen here


def counted_batch(model_factory, points, *args):
    import sys

    batch_sizes.append(len(points))
    return [sys.modules["hdae.sweep"].run_point(model_factory, point, *args[:3], path)
            for point, path in zip(points, args[3])]


def test_points_travel_in_batches_and_a_batch_lost_in_dask_fails_only_its_culprit(client,
                                                                                   monkeypatch):
    # 200 points on 2 worker threads: batches of 200 // 32 = 6 points, each a task. The
    # point T = 2 makes its task fail in Dask itself; its batch runs again point by point, so
    # that only it gets the error row.
    import sys

    sweep_module = sys.modules["hdae.sweep"]
    run_point = sweep_module.run_point
    batch_sizes.clear()

    def lost_for_t_2(model_factory, point, *args):
        if point["T"] == 2.0:
            raise RuntimeError("worker lost")
        return run_point(model_factory, point, *args)

    monkeypatch.setattr(sweep_module, "run_points", counted_batch)
    monkeypatch.setattr(sweep_module, "run_point", lost_for_t_2)
    values = [1.0 + 0.01 * i for i in range(200)]  # T = 2 is point 100
    table = hdae.sweep(decay_factory, {"T": values}, client=client, outputs=["x"], stop=1.0)
    assert list(table["status"]).count("error") == 1
    assert table["status"][100] == "error" and table["message"][100] == "RuntimeError: worker lost"
    for i in (0, 99, 101, 199):  # x(1) = exp(-1/T), the batch mates of T = 2 included
        assert table["x"][i] == pytest.approx(math.exp(-1.0 / values[i]), rel=1e-4)
    # 34 batches of up to 6 points, then the lost batch's 6 points one by one.
    assert max(batch_sizes) == 6
    assert sum(batch_sizes) == 200 + 6
    assert batch_sizes.count(1) >= 6


def test_a_sweep_keeps_a_bounded_number_of_tasks_in_flight(client):
    # One worker thread: at most 4 tasks in flight, however many points. At every submission
    # the unfinished tasks are fewer than that (the new one comes on top).
    import sys

    sweep_module = sys.modules["hdae.sweep"]
    futures, most_unfinished = [], [0]

    def submit(indices):
        most_unfinished[0] = max(most_unfinished[0], sum(not f.done() for f in futures))
        future = client.submit(lambda ids: [{"index": i} for i in ids], indices, pure=False)
        futures.append(future)
        return future

    points = [{"p": i} for i in range(100)]
    rows = sweep_module._gather(submit, points, 1, False)
    assert [row["index"] for row in rows] == list(range(100))
    assert len(futures) == 17  # batches of 100 // 16 = 6 points
    assert most_unfinished[0] <= 3
