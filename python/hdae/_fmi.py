"""Model Exchange FMUs (FMI 3.0 and 2.0) as hdae models:

    ball = hdae.load_fmu("bouncing_ball.fmu", e=0.8)   # keyword arguments are parameters
    r = hdae.simulate(ball, stop=3.0)

The FMU's states are the result's state columns, its Float64 outputs output columns, its
Float64 parameters and inputs (held constant through a run) the model's parameters. A file
that cannot be read raises hdae.IoError naming it; a failing FMU function in a run raises
hdae.ModelCallbackError naming the FMU, the function and the variables.
"""

from . import _hdae
from .models import _set_parameter


def load_fmu(path, **parameters):
    """The FMU at path (a str or os.PathLike) as a model, with the given parameters set."""
    if not hasattr(_hdae, "_load_fmu"):
        raise RuntimeError("this hdae was built without FMI import (HDAE_BUILD_FMI=OFF)")
    model = _hdae._load_fmu(str(path))
    for key, value in parameters.items():
        _set_parameter(model, key, value)
    return model
