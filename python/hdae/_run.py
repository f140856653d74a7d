"""hdae.simulate and hdae.Simulator: runs with options given as keyword arguments."""

import inspect

from . import _hdae
from ._fmi import _steps_itself
from ._options import make_options, options_help


def _check_model(caller, model):
    if not isinstance(model, _hdae.SimulationModel):
        raise TypeError(f"{caller}() needs an hdae model (hdae.models.<Name>(...) or a subclass "
                        f"of hdae.Model), got {type(model).__name__}")
    if (isinstance(model, _hdae.Model) and not callable(getattr(model, "evaluate", None))
            and not callable(getattr(model, "residual", None))
            and getattr(model, "_compiled_residual", None) is None):
        raise _hdae.ModelError(f"model '{model.name}' ({type(model).__name__}) defines no "
                               "evaluate(self, e): a subclass of hdae.Model must write its "
                               "residuals there, or in residual(self, t, x, der_x, r), or set "
                               "a compiled one (set_compiled_residual)")


def simulate(model, **options):
    """Runs model from start_s to stop_s and returns an hdae.Result.

    Options are the fields of hdae::SimulationOptions as keywords (stop_s=500 or stop=500,
    rel_tol=1e-8 or rtol=1e-8, output_interval=0.1, ...). Numerical outcomes (chattering, a
    solver failure, Ctrl-C) come back in result.status; an exception raised by a Python model
    propagates with its type and traceback and carries the rows so far as partial_result.

    An FMU loaded for Co-Simulation (hdae.load_fmu) steps itself with fmi3DoStep from one
    output time to the next; the options choose the span, the output times, the tolerance
    given to the FMU and what is recorded, and the solver options do not apply."""
    _check_model("simulate", model)
    if _steps_itself(model):
        return _hdae._co_simulate(model, make_options("simulate", options))
    return _hdae._simulate(model, make_options("simulate", options))


class Simulator:
    """One run advanced step by step (hdae::Simulator):

        sim = hdae.Simulator(model, stop=2.0)
        sim.initialize()
        while sim.status.outcome == "running":
            sim.advance_to(min(sim.time + 0.5, 2.0))
        result = sim.result
    """

    def __init__(self, model, **options):
        _check_model("Simulator", model)
        if _steps_itself(model):
            raise _hdae.ModelError(f"model '{model.name}' is an FMU loaded for Co-Simulation: "
                                   "it steps itself, so hdae.simulate runs it; hdae.Simulator "
                                   "needs Model Exchange (load_fmu(..., fmi_interface='me'))")
        self.options = make_options("Simulator", options)
        self._sim = _hdae._Simulator(model, self.options)
        self.model = model

    def initialize(self):
        """The event iteration and jump at start_s; returns the status."""
        return self._sim.initialize()

    def advance_to(self, t):
        """Integrates to t (time <= t <= stop_s), handling every event up to t."""
        return self._sim.advance_to(float(t))

    def cancel(self):
        """Asks the run to stop with status 'interrupted' (from any thread)."""
        self._sim.cancel()

    status = property(lambda self: self._sim.status, doc="The status so far")
    time = property(lambda self: self._sim.time, doc="The time reached")
    state = property(lambda self: self._sim.state, doc="x(time), a copy")
    derivatives = property(lambda self: self._sim.derivatives, doc="der_x(time), a copy")
    statistics = property(lambda self: self._sim.statistics, doc="Counters so far (dict)")
    events = property(lambda self: self._sim.events, doc="The event log so far")
    result = property(lambda self: self._sim.result,
                      doc="The result; the first access ends the run")


def _add_options_help(documented):
    """Appends the list of options (keywords, defaults, what they do) to documented's
    docstring, which inspect.cleandoc first brings to zero indentation (none under -OO)."""
    if documented.__doc__:
        documented.__doc__ = inspect.cleandoc(documented.__doc__) + "\n\n" + options_help()


_add_options_help(simulate)
_add_options_help(Simulator)
