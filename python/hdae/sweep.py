"""Parameter studies on Dask: hdae.sweep runs one simulation per parameter point on a
dask.distributed cluster and returns one table row per point.

The points are a grid (a dict of value lists: their cartesian product), a list of dicts, or
Latin-hypercube samples (latin_hypercube). The model is created in the worker, for each run,
by model_factory(**point): the factory is what travels to the workers (for the bundled models
the class-like factories hdae.models.<Name>, which take the parameters as keywords). A point
that fails (an exception of the model or the factory, a bad parameter value, a run ending in
chattering or a solver failure) is reported in its row (status and message) and the others
complete.
"""

import itertools
import math
import os
import sys

import numpy as np

from ._run import simulate


def grid(values):
    """The cartesian product of a dict name -> list of values, as a list of dicts (the first
    name varies slowest)."""
    names = list(values)
    for name in names:
        if isinstance(values[name], (str, bytes)) or not hasattr(values[name], "__iter__"):
            raise TypeError(f"grid: the values of {name!r} must be a list, got {values[name]!r}")
    return [dict(zip(names, combo)) for combo in itertools.product(*(values[n] for n in names))]


def latin_hypercube(bounds, n, seed=None):
    """n points in the box bounds (name -> (low, high)) by Latin-hypercube sampling: for every
    parameter, [low, high] is cut into n equal strata and each stratum holds exactly one
    point, at a uniformly random position within it; the strata are paired across parameters
    by independent random permutations. seed makes the points reproducible."""
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise ValueError(f"latin_hypercube: n must be a positive integer, got {n!r}")
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
        strata = rng.permutation(n)
        columns[name] = low + (strata + rng.random(n)) / n * (high - low)
    return [{name: float(columns[name][i]) for name in columns} for i in range(n)]


def _points(parameters):
    if isinstance(parameters, dict):
        return grid(parameters)
    if hasattr(parameters, "to_dict") and hasattr(parameters, "columns"):  # a DataFrame
        return parameters.to_dict("records")
    points = list(parameters)
    for i, p in enumerate(points):
        if not isinstance(p, dict):
            raise TypeError(f"sweep: point {i} must be a dict of parameter values, got {p!r}")
    return points


def _final(result, name):
    if name not in result:
        raise KeyError(f"output {name!r} is not a column of the result")
    column = result[name]
    return float(column[-1]) if len(column) else math.nan


def _summary_columns(summary, result):
    value = summary(result)
    if isinstance(value, dict):
        return {str(k): v for k, v in value.items()}
    return {"summary": value}


def run_point(model_factory, point, options, outputs=(), summary=None, result_path=None):
    """One run of a sweep (executed in a worker): a dict with the point's parameters, status,
    message, t_end, the final values of outputs, the summary's columns and result_file. Never
    raises for a failing point: the failure is in status and message."""
    row = dict(point)
    result = None
    try:
        model = model_factory(**point)
        result = simulate(model, **options)
        row["status"], row["message"] = result.status.outcome, result.status.message
    except Exception as error:  # reported in the row: the other points must complete
        result = getattr(error, "partial_result", None)
        row["status"] = result.status.outcome if result is not None else "error"
        row["message"] = f"{type(error).__name__}: {error}"
    row["t_end"] = result.status.t if result is not None else math.nan
    for name in outputs:
        try:
            row[name] = _final(result, name) if result is not None else math.nan
        except KeyError as error:
            row[name] = math.nan
            row["message"] = (row["message"] + "; " if row["message"] else "") + str(error)
    if summary is not None and result is not None:
        try:
            row.update(_summary_columns(summary, result))
        except Exception as error:
            row["message"] = (row["message"] + "; " if row["message"] else "") + \
                f"summary failed: {type(error).__name__}: {error}"
    row["result_file"] = ""
    if result_path is not None and result is not None:
        result.write_csv(result_path)
        row["result_file"] = os.fspath(result_path)
    return row


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
    return client, False


def _gather(client, futures, progress):
    from dask.distributed import as_completed

    show = sys.stderr.isatty() if progress is None else progress
    bar = None
    if show:
        from tqdm import tqdm

        bar = tqdm(total=len(futures), unit="run", desc="hdae.sweep")
    rows = [None] * len(futures)
    index = {f.key: i for i, f in enumerate(futures)}
    for future in as_completed(futures):
        rows[index[future.key]] = future.result()
        if bar is not None:
            bar.update(1)
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
    DataFrame (one point per row); latin_hypercube() gives such a list.
    client: None (a LocalCluster of `workers` workers, default 2, processes or threads as
    `processes` says, closed afterwards), a dask.distributed Client, or a scheduler address
    ("tcp://host:8786").
    results_dir: when given, each run's full result is written there as run_<i>.csv (plus the
    units and event files); the workers must see this directory.
    progress: a tqdm progress bar (None: when standard error is a terminal).
    options: the options of every run (stop=..., rtol=..., as for hdae.simulate).
    """
    import pandas as pd

    from ._options import make_options

    make_options("sweep", options)  # bad options fail here, not once per point
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
    try:
        futures = [dask_client.submit(run_point, model_factory, point, options, tuple(outputs),
                                      summary, path, pure=False)
                   for point, path in zip(points, paths)]
        rows = _gather(dask_client, futures, progress)
    finally:
        if owned:
            cluster = getattr(dask_client, "cluster", None)
            dask_client.close()
            if cluster is not None:
                cluster.close()
    return pd.DataFrame(rows)
