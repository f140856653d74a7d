"""Keyword arguments -> hdae.SimulationOptions.

The names are those of the C++ fields (stop_s, rel_tol, output_interval_s, ...); the short
forms start, stop, rtol, output_interval, max_step and max_wall_time are accepted too. Enum
fields take their value names as strings ("klu", "end_point", record_rows="events_only"); the
list fields take sequences (output_times of numbers, record_columns of names and patterns,
record_kinds of "state", "derivative", "output", sinks of "memory", "csv:<file>" and
"hdf5:<file>", sensitivities of parameter names and "start(<variable>)"). Every value is checked for its
type here (TypeError naming the option) and for its range by the C++ validate() (OptionError,
a ValueError, with the C++ message: "SimulationOptions::rel_tol must be in (0, 1), got 2").
A number the field's C++ type cannot hold (max_order=2**31, stop=10**400) is an OptionError
too, with validate()'s rule for the field and the value as given.
"""

import decimal
import functools
import re
import textwrap

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
    "method": _hdae.IntegrationMethod,
    "log_level": _hdae.LogLevel,
    "record_rows": _hdae.RecordedRows,
}


@functools.lru_cache(maxsize=None)
def _fields():
    """The option fields, found once: the class's properties do not change."""
    return tuple(n for n, v in vars(_hdae.SimulationOptions).items()
                 if isinstance(v, property) and not n.startswith("_"))


@functools.lru_cache(maxsize=None)
def _field_set():
    return frozenset(_fields())


def field_names():
    """The option fields (the properties of hdae.SimulationOptions), in the order of the C++
    struct."""
    return list(_fields())


def default_text(value):
    """A default value as help shows it: an enum by the string its keyword takes, a list of
    sinks by their texts, anything else by repr."""
    if isinstance(value, tuple(_ENUMS.values())):
        return repr(value.name)
    if isinstance(value, list) and all(isinstance(v, _hdae.SinkSpec) for v in value):
        return repr([str(v) for v in value])
    return repr(value)


def options_help(width=88):
    """The options as help text, in the order of the C++ struct: for each field a line with its
    keyword, its short forms and its default, then its docstring, wrapped to width and indented.
    Made from hdae.SimulationOptions and ALIASES, so it lists every field there is."""
    defaults = _hdae.SimulationOptions()
    short_forms = {}
    for alias, name in ALIASES.items():
        short_forms.setdefault(name, []).append(alias)
    lines = ["Options, as keywords (field name, short forms, = default):", ""]
    for name in field_names():
        keywords = ", ".join([name] + short_forms.get(name, []))
        lines.append(f"{keywords} = {default_text(getattr(defaults, name))}")
        doc = " ".join((getattr(_hdae.SimulationOptions, name).__doc__ or "").split())
        # A comparison stays on one line with its operand (">= 1"), and so does a quoted name
        # ('wall-clock limit'): their spaces become NULs, which textwrap does not break at, and
        # turn back into spaces afterwards.
        doc = re.sub(r"([<>]=?) ", "\\1\0", doc)
        doc = re.sub(r"'[a-z][a-z -]{0,30}'", lambda m: m.group().replace(" ", "\0"), doc)
        lines += [line.replace("\0", " ") for line in textwrap.wrap(
            doc, width, initial_indent="    ", subsequent_indent="    ", break_on_hyphens=False)]
    return "\n".join(lines)


def _enum_value(name, value):
    kind = _ENUMS[name]
    if isinstance(value, kind):
        return value
    if isinstance(value, str) and value in kind.__members__:
        return kind.__members__[value]
    choices = ", ".join(repr(k) for k in kind.__members__)
    raise ValueError(f"option {name} must be one of {choices}, got {value!r}")


def number_text(value):
    """value for a message: as Python writes it, in exponent form when it has many digits."""
    if isinstance(value, int) and abs(value) >= 10**20:
        return f"{decimal.Decimal(value):.3e}"
    return str(value)


def _refused(name, stand_in, given):
    """The OptionError for field name given a value its C++ type cannot hold: validate()'s
    rule for the field, found by validating stand_in (the nearest value the type holds), with
    the given value; a rule of the type itself when stand_in is valid."""
    options = _hdae.SimulationOptions()
    setattr(options, name, stand_in)
    try:
        options.validate()
    except _hdae.OptionError as error:
        message = str(error)  # "SimulationOptions::<name> must be <rule>, got <value>"
        if message.startswith(f"SimulationOptions::{name} must be ") and ", got " in message:
            return _hdae.OptionError(message.rsplit(", got ", 1)[0] + f", got {number_text(given)}")
    relation = "<=" if given > stand_in else ">="
    return _hdae.OptionError(f"SimulationOptions::{name} must be {relation} {stand_in} (the "
                             f"range of its C++ type), got {number_text(given)}")


def _integer(name, value):
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise TypeError(f"option {name} must be an integer, got {value!r}")
    value = value.__index__()
    low, high = _hdae._integer_option_ranges[name]
    if not low <= value <= high:
        raise _refused(name, min(max(value, low), high), value)
    return value


def _double(name, value):
    if isinstance(value, (bool, str, bytes)) or not hasattr(value, "__float__"):
        raise TypeError(f"option {name} must be a number, got {value!r}")
    try:
        return float(value)
    except OverflowError:  # an int beyond DBL_MAX
        raise _refused(name, float("inf") if value > 0 else float("-inf"), value) from None
    except (TypeError, ValueError):  # a numpy array of several values, say
        raise TypeError(f"option {name} must be a number, got {value!r}") from None


def _sequence(name, value, item):
    """A list of item(name, element) for each element of value, a sequence (not a string)."""
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise TypeError(f"option {name} must be a sequence, got {value!r}")
    return [item(name, element) for element in value]


def _text(name, value):
    if not isinstance(value, str):
        raise TypeError(f"option {name} must hold strings, got {value!r}")
    return value


def _kind(name, value):
    kinds = _hdae.ColumnKind
    if isinstance(value, kinds):
        return value
    if isinstance(value, str) and value in kinds.__members__:
        return kinds.__members__[value]
    choices = ", ".join(repr(k) for k in kinds.__members__)
    raise ValueError(f"option {name} holds one of {choices}, got {value!r}")


def _sink(name, value):
    """A sink from its text ("memory", "csv:<file>", "hdf5:<file>"; the C++ SinkSpec::parse
    refuses other texts with an OptionError naming the option) or a hdae.SinkSpec."""
    if isinstance(value, _hdae.SinkSpec):
        return value
    if not isinstance(value, str):
        raise TypeError(f"option {name} holds 'memory', 'csv:<file>' or 'hdf5:<file>', "
                        f"got {value!r}")
    return _hdae.SinkSpec(value)


_SEQUENCES = {"output_times": _double, "record_columns": _text, "record_kinds": _kind,
              "sinks": _sink, "sensitivities": _text}


def _converted(name, value, default):
    """value in the type of the field name (whose default is default), or TypeError, or
    OptionError when the field's C++ type cannot hold it."""
    if name in _ENUMS:
        return _enum_value(name, value)
    if name in _SEQUENCES:
        return _sequence(name, value, _SEQUENCES[name])
    if name == "output_interval_s":
        return None if value is None else _double(name, value)
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise TypeError(f"option {name} must be True or False, got {value!r}")
        return value
    if isinstance(default, int):
        return _integer(name, value)
    return _double(name, value)


def make_options(caller, kwargs):
    """A validated SimulationOptions from keyword arguments (caller names the function in
    messages about unknown arguments)."""
    options = _hdae.SimulationOptions()
    fields = _field_set()
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
