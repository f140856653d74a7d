"""The bundled models (hdae::models::catalog), one factory each, named in CamelCase:

    hdae.models.IdealClutch(J2=0.5)        # keyword arguments are parameters
    hdae.models.names()                     # the catalog's names: "ideal_clutch", ...
    hdae.models.make("ideal_clutch", J2=0.5)

A parameter name the model does not have, or a value outside its range, raises
hdae.ModelError (a ValueError) with the C++ message naming the parameter, also for a number
no double holds (J2=10**400); a value that is no single number (a string, an array of several
values) raises TypeError naming it. The factories are
plain module functions, so they pickle by name and can be sent to Dask workers (hdae.sweep).
"""

import math

from . import _hdae
from ._options import number_text

_CATALOG = {name: (description, parameters)
            for name, description, parameters in _hdae._catalog()}


def names():
    """The names of the bundled models, in the catalog's order."""
    return list(_CATALOG)


def make(name, **parameters):
    """A new bundled model called name, with the given parameters changed."""
    model = _hdae._make_model(name)
    for key, value in parameters.items():
        _set_parameter(model, key, value)
    return model


def _set_parameter(model, key, value):
    not_a_number = TypeError(f"model '{model.name}': parameter {key} must be a number, "
                             f"got {value!r}")
    if isinstance(value, (bool, str, bytes)) or not hasattr(value, "__float__"):
        raise not_a_number
    overflow = False
    try:
        number = float(value)
    except OverflowError:  # an int beyond DBL_MAX: the C++ range check refuses it as infinite
        number, overflow = (math.inf if value > 0 else -math.inf), True
    except (TypeError, ValueError):  # a numpy array of several values, say
        raise not_a_number from None
    try:
        model.set_parameter(key, number)
    except _hdae.ModelError as error:
        message = str(error)  # "model '...': parameter '...' must be ..., got inf"
        if overflow and ", got " in message:  # the rule, with the value as given
            raise _hdae.ModelError(message.rsplit(", got ", 1)[0] +
                                   f", got {number_text(value)}") from None
        raise


def _class_name(name):
    return "".join(part.capitalize() for part in name.split("_"))


def _range(p):
    low = "-inf" if p.min == -math.inf else f"{p.min:g}"
    high = "inf" if p.max == math.inf else f"{p.max:g}"
    return f"[{low}, {high}]"


def _factory(name, description, parameters):
    def factory(**parameters):
        return make(name, **parameters)

    factory.__name__ = factory.__qualname__ = _class_name(name)
    factory.__module__ = __name__
    lines = [f"    {p.name} = {p.value:g} {p.unit}  {_range(p)}  {p.description}"
             for p in parameters]
    factory.__doc__ = (f"{description}\n\nThe bundled model '{name}'. Parameters (keyword "
                       "arguments; default, unit, range):\n" + "\n".join(lines))
    return factory


for _name, (_description, _parameters) in _CATALOG.items():
    globals()[_class_name(_name)] = _factory(_name, _description, _parameters)

__all__ = ["make", "names"] + [_class_name(n) for n in _CATALOG]
