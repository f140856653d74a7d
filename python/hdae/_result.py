"""What hdae.Result offers beyond the C++ core: a pandas table and plots."""

import os

import numpy as np


def to_pandas(self):
    """The table as a pandas DataFrame: a column "time", then every result column. Both
    limits of an event stay as two rows with equal time (left limit first)."""
    import pandas as pd

    data = {"time": np.array(self.time)}
    for name in self.columns:
        data[name] = np.array(self[name])
    return pd.DataFrame(data)


def _pyplot():
    import matplotlib

    if not os.environ.get("DISPLAY") and "MPLBACKEND" not in os.environ:
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot(self, *signals, path=None, ax=None, events=True, title=None):
    """Plots the named signals (default: the state variables) over time, event instants as
    dotted vertical lines. Saves the figure to path when given; returns the figure. Uses the
    Agg backend when there is no display."""
    unknown = [s for s in signals if s not in self]
    if unknown:
        raise KeyError(f"no column {unknown[0]!r} in the result (see Result.columns)")
    if not signals:
        signals = [c for c, k in self.kinds.items() if k == "state"]
    plt = _pyplot()
    if ax is None:
        fig, ax = plt.subplots(figsize=(8, 4.5))
    else:
        fig = ax.figure
    units = self.units
    for name in signals:
        label = f"{name} [{units[name]}]" if units.get(name) else name
        ax.plot(self.time, self[name], label=label)
    if events:
        for e in self.events:
            if e.kind != "initial":
                ax.axvline(e.t, color="0.6", linestyle=":", linewidth=0.8)
    ax.set_xlabel("time [s]")
    ax.legend(loc="best")
    ax.grid(True, alpha=0.3)
    if title:
        ax.set_title(title)
    if path is not None:
        fig.savefig(path, dpi=120, bbox_inches="tight")
    return fig


def sensitivity(self, column, name):
    """The derivative of a column with respect to a parameter or start value over the rows,
    d(column)/d(name), from a run with sensitivities=[..., name, ...]:
    result.sensitivity("w1", "J2") or result.sensitivity("x", "start(v)")."""
    key = f"d({column})/d({name})"
    try:
        return self[key]
    except KeyError:
        raise KeyError(f"no column '{key}' in the result: run with sensitivities=[{name!r}] "
                       f"(and record its columns) to have it") from None


def _repr(self):
    s = self.status
    return (f"<hdae.Result {s.outcome} at t = {s.t:g}: {len(self)} rows x "
            f"{len(self.columns)} columns, {len(self.events)} events>")


def install(result_class):
    result_class.to_pandas = to_pandas
    result_class.plot = plot
    result_class.sensitivity = sensitivity
    result_class.__repr__ = _repr
