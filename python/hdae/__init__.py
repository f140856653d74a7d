"""hdae: hybrid DAE simulation with consistent jumps, from Python.

    import hdae
    r = hdae.simulate(hdae.models.IdealClutch(J2=0.5), stop=500, rtol=1e-8)
    r["w1"], r.to_pandas(), r.events, r.status, r.plot("w1", "w2")

Models written in Python subclass hdae.Model (element-wise evaluate(), numpy residual() or a
numba cfunc through set_compiled_residual); hdae.sweep runs parameter studies on Dask.
"""

from ._hdae import (  # noqa: F401
    Crossing,
    CrossingDirection,
    EngineError,
    Eq,
    ErrorControl,
    IoError,
    Model,
    ModelCallbackError,
    ModelError,
    OptionError,
    Out,
    Param,
    ParameterInfo,
    Result,
    RowKind,
    SimulationModel,
    SimulationOptions,
    SinkSpec,
    TimeEvent,
    Var,
    __version__,
)
from . import _compiled, _result, models  # noqa: F401
from ._compiled import compiled_residual_signature  # noqa: F401
from ._fmi import load_fmu  # noqa: F401
from .fit import FitResult, fit  # noqa: F401
from ._run import Simulator, simulate  # noqa: F401
from .sweep import latin_hypercube, sweep  # noqa: F401

_result.install(Result)
_compiled.install(Model)

__all__ = [
    "Crossing", "CrossingDirection", "EngineError", "Eq", "ErrorControl", "FitResult", "IoError",
    "Model",
    "ModelCallbackError", "ModelError", "OptionError", "Out", "Param", "ParameterInfo", "Result",
    "RowKind", "SimulationModel", "SimulationOptions", "Simulator", "SinkSpec", "TimeEvent",
    "Var", "compiled_residual_signature", "fit", "latin_hypercube", "load_fmu", "models", "simulate", "sweep", "__version__",
]
