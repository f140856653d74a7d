"""hdae.fit: least-squares estimation of model parameters from measurements.

The residuals are the differences between the model's columns and the measured values at the
measurement times; their Jacobian comes from the run's own sensitivities
(SimulationOptions::sensitivities), so it stays right through events and jumps where
difference quotients of whole runs would straddle an event time. scipy.optimize.least_squares
minimises; the confidence intervals come from the Jacobian at the solution (the linearised
covariance s^2 (J^T J)^-1 with Student's t quantile).
"""

import math

import numpy as np

from ._run import simulate


class FitResult:
    """What hdae.fit found: parameters, standard_errors and confidence_intervals (dicts by
    name), cost (half the weighted sum of squared residuals), residual_std (the residuals'
    standard deviation estimated from the fit), result (the run at the estimate) and
    optimizer (scipy's OptimizeResult)."""

    def __init__(self, names, values, errors, confidence, cost, residual_std, result, optimizer):
        self.parameters = dict(zip(names, values))
        self.standard_errors = dict(zip(names, errors))
        self.confidence = confidence
        self.confidence_intervals = {n: (v - w, v + w) for n, v, w in
                                     zip(names, values, _half_widths(errors, confidence,
                                                                     optimizer))}
        self.cost = cost
        self.residual_std = residual_std
        self.result = result
        self.optimizer = optimizer

    def __repr__(self):
        parts = [f"{n} = {v:.6g} +- {self.standard_errors[n]:.2g}"
                 for n, v in self.parameters.items()]
        return f"<hdae.FitResult {', '.join(parts)}>"


def _half_widths(errors, confidence, optimizer):
    from scipy import stats
    dof = max(optimizer.fun.size - optimizer.x.size, 1)
    quantile = stats.t.ppf(0.5 + confidence / 2.0, dof)
    return [quantile * e for e in errors]


def _measurements(data):
    if "time" not in data:
        raise ValueError("hdae.fit: data needs a 'time' entry (the measurement times)")
    times = np.asarray(data["time"], dtype=float)
    columns = {k: np.asarray(v, dtype=float) for k, v in data.items() if k != "time"}
    if not columns:
        raise ValueError("hdae.fit: data has no measured column besides 'time'")
    for name, values in columns.items():
        if values.shape != times.shape:
            raise ValueError(f"hdae.fit: data['{name}'] has {values.size} values for "
                             f"{times.size} times")
    if times.size == 0 or np.any(np.diff(times) <= 0) or not np.all(np.isfinite(times)):
        raise ValueError("hdae.fit: data['time'] must be finite and strictly increasing")
    return times, columns


def _rows_at(result, times):
    """The index of the last row at each measurement time (after an event's jump)."""
    last = {t: k for k, t in enumerate(result.time)}
    return np.array([last[t] for t in times])


def fit(model, data, parameters, *, x0=None, bounds=None, weights=None, confidence=0.95,
        **options):
    """Estimates parameters of model from data and returns an hdae.FitResult.

    data: {"time": times, "<column>": measured values, ...} with strictly increasing times
    after the run's start (start_s, 0 by default). parameters: the names to estimate (model
    parameters). x0: their starting values (default: the model's current ones). bounds:
    (lower, upper) sequences as scipy.optimize.least_squares takes them (default: the
    parameters' declared ranges). weights: {"<column>": 1/sigma} to scale each column's
    residuals (default 1). Other keywords are options of the runs (rtol, ...), whose stop
    time is the last measurement. The model keeps the estimated values when fit returns."""
    from scipy.optimize import least_squares

    names = list(parameters)
    times, columns = _measurements(data)
    infos = {p.name: p for p in model.parameter_info}
    for name in names:
        if name not in infos:
            raise ValueError(f"hdae.fit: model '{model.name}' has no parameter '{name}'; its "
                             f"parameters are: {', '.join(infos)}")
    scale = {c: float((weights or {}).get(c, 1.0)) for c in columns}
    start = np.array([model.parameter(n) for n in names] if x0 is None else x0, dtype=float)
    if bounds is None:
        bounds = ([infos[n].min for n in names], [infos[n].max for n in names])
    run_options = dict(options, stop=float(times[-1]), output_times=list(times),
                       sensitivities=names)
    last = {}

    def run(values):
        for name, value in zip(names, values):
            model.set_parameter(name, float(value))
        result = simulate(model, **run_options)
        if result.status.outcome != "reached stop time":
            raise RuntimeError(f"hdae.fit: the run at {dict(zip(names, values))} ended: "
                               f"{result.status.message}")
        last["result"], last["rows"] = result, _rows_at(result, times)
        return result

    def residuals(values):
        r = run(values)
        return np.concatenate([scale[c] * (r[c][last["rows"]] - columns[c]) for c in columns])

    def jacobian(values):
        if not np.array_equal(values, last.get("values")):
            residuals_kept(values)
        r, rows = last["result"], last["rows"]
        return np.column_stack([np.concatenate([scale[c] * r.sensitivity(c, n)[rows]
                                                for c in columns]) for n in names])

    def residuals_kept(values):
        out = residuals(values)
        last["values"] = np.array(values, copy=True)
        return out

    found = least_squares(residuals_kept, start, jac=jacobian, bounds=bounds, x_scale="jac")
    run(found.x)
    dof = found.fun.size - found.x.size
    residual_std = math.sqrt(2.0 * found.cost / dof) if dof > 0 else float("nan")
    try:
        covariance = residual_std ** 2 * np.linalg.inv(found.jac.T @ found.jac)
        errors = [math.sqrt(max(covariance[i, i], 0.0)) for i in range(len(names))]
    except np.linalg.LinAlgError:
        errors = [float("inf")] * len(names)
    return FitResult(names, list(found.x), errors, confidence, found.cost, residual_std,
                     last["result"], found)
