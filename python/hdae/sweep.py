"""Parameter studies on Dask: hdae.sweep runs one simulation per parameter point on a
dask.distributed cluster and returns one table row per point.

The points are a grid (a dict of value lists: their cartesian product), a list of dicts, or
Latin-hypercube samples (latin_hypercube). The model is created in the worker, for each run,
by model_factory(**point): the factory is what travels to the workers (for the bundled models
the class-like factories hdae.models.<Name>, which take the parameters as keywords). A point
that fails (an exception of the model or the factory, a bad parameter value, a run ending in
chattering or a solver failure; also KeyboardInterrupt or SystemExit raised by its model, and
a failure after the run: a summary that fails or cannot be pickled, a result file that cannot
be written) is reported in its row (status and message) and the others complete. Ctrl-C in
the calling process stops the whole sweep.

A sweep has at most MAX_POINTS points: a grid is counted before it is made, so that a study
too large for the scheduler and for memory is refused at once (ValueError naming the count).
"""

import itertools
import math
import operator
import os
import pickle
import sys

import numpy as np

from ._run import simulate

#: The most points one sweep runs. The calling process keeps every point's parameters and
#: row (about a kilobyte per point with a few parameters and outputs, docs/benchmarks.md), so
#: a million points take a GiB or more there; larger studies are several sweeps.
MAX_POINTS = 1_000_000

#: Points per Dask task at most: each task costs the scheduler milliseconds and some KiB, far
#: more than a short run, so points travel in batches (_batches).
_MAX_BATCH = 50

#: Tasks in flight per worker thread: enough to keep every worker busy while finished tasks
#: come back, few enough that the scheduler holds a bounded number of tasks at any time.
_IN_FLIGHT_PER_THREAD = 4

#: What a point's model, factory or summary may raise and the point reports in its row.
#: KeyboardInterrupt and SystemExit raised there are the point's failure: in a worker they
#: would otherwise kill its thread or process. Ctrl-C in the calling process still stops the
#: sweep: it raises there, in _gather, not in run_point.
_POINT_FAILURES = (Exception, KeyboardInterrupt, SystemExit)


def _positive_count(caller, name, value):
    """value (an int or a numpy integer, not a bool) as an int >= 1, or TypeError/ValueError."""
    try:
        count = None if isinstance(value, (bool, np.bool_)) else operator.index(value)
    except TypeError:
        count = None
    if count is None:
        raise TypeError(f"{caller}: {name} must be a positive integer, got {value!r}")
    if count < 1:
        raise ValueError(f"{caller}: {name} must be a positive integer, got {count}")
    return count


def _refuse_too_many(caller, count, detail=""):
    if count > MAX_POINTS:
        raise ValueError(f"{caller}: {count} points{detail} are more than the limit of "
                         f"{MAX_POINTS} per sweep (hdae.sweep.MAX_POINTS); split the study "
                         "into several sweeps")


def grid(values):
    """The cartesian product of a dict name -> list of values, as a list of dicts (the first
    name varies slowest). More than MAX_POINTS combinations: ValueError, before any is made."""
    names = list(values)
    axes = []
    for name in names:
        axis = values[name]
        if isinstance(axis, (str, bytes)) or not hasattr(axis, "__iter__"):
            raise TypeError(f"grid: the values of {name!r} must be a list, got {axis!r}")
        axes.append(axis if hasattr(axis, "__len__") else list(axis))
    sizes = [len(axis) for axis in axes]
    _refuse_too_many("grid", math.prod(sizes), " (" + " x ".join(map(str, sizes)) + ")")
    return [dict(zip(names, combo)) for combo in itertools.product(*axes)]


def latin_hypercube(bounds, n, seed=None):
    """n points in the box bounds (name -> (low, high)) by Latin-hypercube sampling: for every
    parameter, [low, high] is cut into n equal strata and each stratum holds exactly one
    point, at a uniformly random position within it; the strata are paired across parameters
    by independent random permutations. seed makes the points reproducible. n may be a numpy
    integer; at most MAX_POINTS."""
    n = _positive_count("latin_hypercube", "n", n)
    _refuse_too_many("latin_hypercube", n)
    rng = np.random.default_rng(seed)
    columns = {}
    for name, bound in bounds.items():
        try:
            low, high = (float(b) for b in bound)
        except (TypeError, ValueError):
            raise ValueError(f"latin_hypercube: bounds of {name!r} must be (low, high), "
                             f"got {bound!r}") from None
        if not (math.isfinite(low) and math.isfinite(high) and low <= high):
            raise ValueError(f"latin_hypercube: bounds of {name!r} must be finite with "
                             f"low <= high, got ({low}, {high})")
        u = (rng.permutation(n) + rng.random(n)) / n  # in [0, 1), one value per stratum
        # low (1 - u) + high u, not low + u (high - low): high - low overflows for bounds of
        # opposite sign beyond DBL_MAX / 2. The clip keeps a last-bit rounding inside the box.
        columns[name] = np.clip(low * (1.0 - u) + high * u, low, high)
    return [{name: float(columns[name][i]) for name in columns} for i in range(n)]


def _points(parameters):
    if isinstance(parameters, dict):
        return grid(parameters)
    if hasattr(parameters, "to_dict") and hasattr(parameters, "columns"):  # a DataFrame
        _refuse_too_many("sweep", len(parameters))
        return parameters.to_dict("records")
    if hasattr(parameters, "__len__"):
        _refuse_too_many("sweep", len(parameters))
    # An iterator is read no further than one point beyond the limit.
    points = list(itertools.islice(parameters, MAX_POINTS + 1))
    _refuse_too_many("sweep", len(points), " (at least: the iterator was read no further)")
    for i, p in enumerate(points):
        if not isinstance(p, dict):
            raise TypeError(f"sweep: point {i} must be a dict of parameter values, got {p!r}")
    return points


def _described(error):
    return f"{type(error).__name__}: {error}"


def _add_message(row, text):
    row["message"] = (row["message"] + "; " if row["message"] else "") + text


def _final(result, name):
    if name not in result:
        raise KeyError(f"output {name!r} is not a column of the result")
    column = result[name]
    return float(column[-1]) if len(column) else math.nan


def _picklable(value):
    """The error pickling value raises (pickle, then cloudpickle as Dask does), or None."""
    try:
        pickle.dumps(value)
        return None
    except Exception as error:  # noqa: BLE001 - any failure of pickling is reported
        try:
            import cloudpickle

            cloudpickle.dumps(value)
            return None
        except ImportError:
            return error
        except Exception as cloud_error:  # noqa: BLE001
            return cloud_error


def _summary_columns(summary, result):
    """summary(result) as columns; a value that cannot travel back from a worker (pickled in
    every mode, so that threads and processes give the same table) raises TypeError."""
    value = summary(result)
    columns = {str(k): v for k, v in value.items()} if isinstance(value, dict) \
        else {"summary": value}
    for name, v in columns.items():
        error = _picklable(v)
        if error is not None:
            raise TypeError(f"column {name!r} cannot be sent back from a worker "
                            f"({_described(error)}); return numbers or strings")
    return columns


def _simulated(row, model_factory, point, options):
    """The point's result (or the partial result of a failed run, or None); sets status and
    message."""
    try:
        result = simulate(model_factory(**point), **options)
        row["status"], row["message"] = result.status.outcome, result.status.message
    except _POINT_FAILURES as error:  # reported in the row: the other points must complete
        result = getattr(error, "partial_result", None)
        row["status"] = result.status.outcome if result is not None else "error"
        row["message"] = _described(error)
    return result


def run_point(model_factory, point, options, outputs=(), summary=None, result_path=None):
    """One run of a sweep (executed in a worker): a dict with the point's parameters, status,
    message, t_end, the final values of outputs, the summary's columns and result_file. Never
    raises for a failing point: the failure is in status and message (a failure after the run,
    of the summary or of writing the result file, in message)."""
    row = dict(point)
    row["status"], row["message"] = "error", ""
    result = _simulated(row, model_factory, point, options)
    row["t_end"] = result.status.t if result is not None else math.nan
    for name in outputs:
        try:
            row[name] = _final(result, name) if result is not None else math.nan
        except KeyError as error:
            row[name] = math.nan
            _add_message(row, str(error))
    if summary is not None and result is not None:
        try:
            row.update(_summary_columns(summary, result))
        except _POINT_FAILURES as error:
            _add_message(row, f"summary failed: {_described(error)}")
    row["result_file"] = ""
    if result_path is not None and result is not None:
        try:
            result.write_csv(result_path)
            row["result_file"] = os.fspath(result_path)
        except _POINT_FAILURES as error:
            _add_message(row, f"result file not written: {_described(error)}")
    return row


def run_points(model_factory, points, options, outputs, summary, paths):
    """run_point for each point of one task (executed in a worker), in order."""
    return [run_point(model_factory, point, options, outputs, summary, path)
            for point, path in zip(points, paths)]


def _batches(count, threads):
    """The points' indices in batches: at least 16 batches per worker thread while points
    last, at most _MAX_BATCH points each."""
    size = max(1, min(_MAX_BATCH, count // (16 * threads)))
    return [list(range(i, min(i + size, count))) for i in range(0, count, size)]


def _threads(client):
    """The worker threads of the cluster (at least 1: workers may still be connecting)."""
    try:
        return max(1, sum(client.nthreads().values()))
    except Exception:  # noqa: BLE001 - a scheduler that cannot say: assume one
        return 1


def _client(client, processes, workers):
    """(client, owned): the given Client, one connected to an address, or a new LocalCluster."""
    from dask.distributed import Client, LocalCluster

    if client is None:
        cluster = LocalCluster(n_workers=workers or min(2, os.cpu_count() or 1),
                               threads_per_worker=1, processes=processes,
                               dashboard_address=":0")
        return Client(cluster), True
    if isinstance(client, str):
        return Client(client), True
    if not callable(getattr(client, "submit", None)):
        raise TypeError(f"client must be None, a dask.distributed Client or a scheduler address "
                        f"such as 'tcp://host:8786', not {type(client).__name__} {client!r}")
    return client, False


def _gather(submit, points, threads, progress):
    """The rows in the order of the points, run in batches with a bounded number of tasks in
    flight. A batch whose task failed in Dask itself (its worker died: KilledWorker; its rows
    could not be sent back) runs again one point per task, so that only the point that fails
    so gets a row saying so."""
    from collections import deque

    from dask.distributed import as_completed

    show = sys.stderr.isatty() if progress is None else progress
    bar = None
    if show:
        from tqdm import tqdm

        bar = tqdm(total=len(points), unit="run", desc="hdae.sweep")
    rows = [None] * len(points)
    waiting = deque(_batches(len(points), threads))
    in_flight = {}  # future key -> (future, indices)
    done = as_completed()

    def top_up():
        while waiting and len(in_flight) < _IN_FLIGHT_PER_THREAD * threads:
            indices = waiting.popleft()
            future = submit(indices)
            in_flight[future.key] = (future, indices)
            done.add(future)

    try:
        top_up()
        for future in done:
            _, indices = in_flight.pop(future.key)
            try:
                for i, row in zip(indices, future.result()):
                    rows[i] = row
            except Exception as error:  # not BaseException: Ctrl-C here stops the sweep
                if len(indices) > 1:
                    waiting.extendleft([i] for i in reversed(indices))
                    indices = []  # counted when they come back
                else:
                    rows[indices[0]] = dict(points[indices[0]], status="error",
                                            message=_described(error))
            if bar is not None:
                bar.update(len(indices))
            future.release()
            top_up()
    except BaseException:  # Ctrl-C: the runs not done yet are not wanted any more
        for future, _ in in_flight.values():
            future.cancel()
        raise
    finally:
        if bar is not None:
            bar.close()
    return rows


def sweep(model_factory, parameters, *, client=None, outputs=(), summary=None,
          results_dir=None, progress=None, processes=True, workers=None, **options):
    """Runs model_factory(**point) for every point and returns a pandas DataFrame with one row
    per point, in the order of the points: the parameters, status (the outcome, "error" when
    the factory failed), message, t_end, the final value of every name in outputs, the
    columns of summary(result) (a dict, or one value in column "summary") and result_file.

    parameters: a dict name -> list (the grid of all combinations), a list of dicts, or a
    DataFrame (one point per row); latin_hypercube() gives such a list. At most MAX_POINTS
    points (ValueError naming the count, before any run).
    client: None (a LocalCluster of `workers` workers, a positive integer, default 2,
    processes or threads as `processes` says, closed afterwards), a dask.distributed Client,
    or a scheduler address ("tcp://host:8786").
    results_dir: when given, each run's full result is written there as run_<i>.csv (plus the
    units and event files); the workers must see this directory.
    progress: a tqdm progress bar (None: when standard error is a terminal).
    options: the options of every run (stop=..., rtol=..., as for hdae.simulate).
    """
    import pandas as pd

    from ._options import make_options

    make_options("sweep", options)  # bad options fail here, not once per point
    if workers is not None:
        workers = _positive_count("sweep", "workers", workers)
    points = _points(parameters)
    paths = [None] * len(points)
    if results_dir is not None:
        os.makedirs(results_dir, exist_ok=True)
        width = max(4, len(str(len(points) - 1)))
        paths = [os.path.join(os.path.abspath(results_dir), f"run_{i:0{width}d}.csv")
                 for i in range(len(points))]
    if not points:
        return pd.DataFrame()
    dask_client, owned = _client(client, processes, workers)
    outputs = tuple(outputs)

    def submit(indices):
        return dask_client.submit(run_points, model_factory, [points[i] for i in indices],
                                  options, outputs, summary, [paths[i] for i in indices],
                                  pure=False)

    try:
        rows = _gather(submit, points, _threads(dask_client), progress)
    finally:
        if owned:
            cluster = getattr(dask_client, "cluster", None)
            dask_client.close()
            if cluster is not None:
                cluster.close()
    return pd.DataFrame(rows)


sweep.MAX_POINTS = MAX_POINTS  # as hdae.sweep.MAX_POINTS (hdae.sweep is this function)
