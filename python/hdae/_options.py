"""Keyword arguments -> hdae.SimulationOptions.

The names are those of the C++ fields (stop_s, rel_tol, output_interval_s, ...); the short
forms start, stop, rtol, output_interval, max_step and max_wall_time are accepted too. Enum
fields take their value names as strings ("klu", "end_point"). Every value is checked for its
type here (TypeError naming the option) and for its range by the C++ validate() (OptionError,
a ValueError, with the C++ message: "SimulationOptions::rel_tol must be in (0, 1), got 2").
"""

import os

from . import _hdae

ALIASES = {
    "start": "start_s",
    "stop": "stop_s",
    "rtol": "rel_tol",
    "output_interval": "output_interval_s",
    "max_step": "max_step_s",
    "max_wall_time": "max_wall_time_s",
}

_ENUMS = {
    "linear_solver": _hdae.LinearSolverKind,
    "jump_rule": _hdae.JumpRule,
    "restart_step": _hdae.RestartStep,
    "row_storage": _hdae.RowStorage,
    "log_level": _hdae.LogLevel,
}


def field_names():
    """The option fields, in the order of the C++ struct."""
    return [n for n in dir(_hdae.SimulationOptions) if not n.startswith("_")
            and n not in ("validate", "resolved_output_interval_s")]


def _enum_value(name, value):
    kind = _ENUMS[name]
    if isinstance(value, kind):
        return value
    if isinstance(value, str) and value in kind.__members__:
        return kind.__members__[value]
    choices = ", ".join(repr(k) for k in kind.__members__)
    raise ValueError(f"option {name} must be one of {choices}, got {value!r}")


def _converted(name, value, default):
    """value in the type of the field name (whose default is default), or TypeError."""
    if name in _ENUMS:
        return _enum_value(name, value)
    if name == "output_interval_s":
        return None if value is None else _converted("output_interval_s (a number)", value, 0.0)
    if name == "stream_csv_path":
        if not isinstance(value, (str, os.PathLike)):
            raise TypeError(f"option stream_csv_path must be a path, got {value!r}")
        return os.fspath(value)
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise TypeError(f"option {name} must be True or False, got {value!r}")
        return value
    if isinstance(default, int):
        if isinstance(value, bool) or not hasattr(value, "__index__"):
            raise TypeError(f"option {name} must be an integer, got {value!r}")
        value = value.__index__()
        if value < 0:
            raise ValueError(f"SimulationOptions::{name} must be >= 0, got {value}")
        return value
    if isinstance(value, (bool, str)) or not hasattr(value, "__float__"):
        raise TypeError(f"option {name} must be a number, got {value!r}")
    return float(value)


def make_options(caller, kwargs):
    """A validated SimulationOptions from keyword arguments (caller names the function in
    messages about unknown arguments)."""
    options = _hdae.SimulationOptions()
    fields = set(field_names())
    given = {}
    for key, value in kwargs.items():
        name = ALIASES.get(key, key)
        if name not in fields:
            known = ", ".join(sorted(fields | set(ALIASES)))
            raise TypeError(f"{caller}() got an unexpected option {key!r}; options are: {known}")
        if name in given:
            raise TypeError(f"{caller}() got option {name} twice (as {given[name]!r} and {key!r})")
        given[name] = key
        setattr(options, name, _converted(name, value, getattr(options, name)))
    options.validate()
    return options
