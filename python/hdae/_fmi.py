"""FMUs (FMI 3.0 and 2.0 Model Exchange, FMI 3.0 Co-Simulation) as hdae models:

    ball = hdae.load_fmu("bouncing_ball.fmu", e=0.8)   # keyword arguments are parameters
    r = hdae.simulate(ball, stop=3.0)

A Model Exchange FMU is integrated by hdae's solvers: its states are the result's state
columns, its Float64 outputs output columns, its Float64 parameters and inputs (held constant
through a run) the model's parameters. A Co-Simulation FMU (fmi_interface="cs", or an FMU that
has only that interface) steps itself with fmi3DoStep from one output time to the next when
hdae.simulate runs it; the result has the same columns, a row at each output time and the
events the FMU reports from inside its steps. A file that cannot be read raises hdae.IoError
naming it; a failing FMU function in a run raises hdae.ModelCallbackError naming the FMU, the
function and the variables.
"""

from . import _hdae
from .models import _set_parameter

# The spellings of fmi_interface: hdae's (hdae run --fmi-interface) and FMPy's (fmi_type).
_INTERFACES = {"me": "me", "ModelExchange": "me", "cs": "cs", "CoSimulation": "cs"}


def load_fmu(path, fmi_interface=None, **parameters):
    """The FMU at path (a str or os.PathLike) as a model, with the given parameters set.

    fmi_interface chooses the interface of an FMU that has both: "me" (or "ModelExchange")
    for hdae's solvers and event handling, "cs" (or "CoSimulation") for the FMU's own
    fmi3DoStep. None: Model Exchange when the FMU has it, else Co-Simulation, as `hdae run`
    chooses. An FMU without the interface asked for raises hdae.IoError naming the element
    it lacks."""
    if not hasattr(_hdae, "_load_fmu"):
        raise RuntimeError("this hdae was built without FMI import (HDAE_BUILD_FMI=OFF)")
    if fmi_interface is not None and fmi_interface not in _INTERFACES:
        raise ValueError(f"load_fmu: fmi_interface={fmi_interface!r}: the interfaces are "
                         "'me' (or 'ModelExchange') and 'cs' (or 'CoSimulation')")
    model = _hdae._load_fmu(str(path), _INTERFACES.get(fmi_interface))
    for key, value in parameters.items():
        _set_parameter(model, key, value)
    return model


def _steps_itself(model):
    """Whether model is an FMU loaded for Co-Simulation, which hdae.simulate runs by its own
    stepping rather than with hdae's solvers."""
    return hasattr(_hdae, "_fmu_interface") and _hdae._fmu_interface(model) == "cs"
