"""hdae.Model.set_compiled_residual: a residual compiled with numba, called without the GIL.

The residual is a numba cfunc of this C signature (numba types):

    void(float64 t, CPointer(float64) x, CPointer(float64) der_x, CPointer(float64) r,
         CPointer(float64) p, intp n)

x and der_x hold the model's n unknowns in declaration order, r receives its n residuals
(every entry, on every call), p holds the model's parameter values in declaration order. The
signature is checked here; numba is imported only when one is given, so the package works
without it.
"""


def compiled_residual_signature():
    """The numba signature set_compiled_residual requires."""
    from numba import types

    vector = types.CPointer(types.float64)
    return types.void(types.float64, vector, vector, vector, vector, types.intp)


def set_compiled_residual(self, cfunc):
    """Sets the model's residual to a numba cfunc, called from C++ without the GIL.

    cfunc: a function made by numba.cfunc with the signature
        void(float64 t, CPointer(float64) x, CPointer(float64) der_x, CPointer(float64) r,
             CPointer(float64) p, intp n)
    (hdae.compiled_residual_signature()), which writes the n residuals r from time t, the
    unknowns x and their derivatives der_x (declaration order) and the parameter values p
    (declaration order); or None to go back to residual() or evaluate(). Call it after the
    declarations, in __init__. The model keeps the cfunc (its code lives as long as it).
    An evaluate_crossings(self, e) method, if the class has one, still runs in Python at each
    evaluation, before the cfunc; on_event(self, ev) stays in Python.

    Raises TypeError when cfunc is not a numba cfunc or has another signature, and
    hdae.ModelError when the model does not declare as many equations as unknowns.
    """
    if cfunc is None:
        self._set_compiled_residual(0)
        self._compiled_residual = None
        return
    kind = type(cfunc)
    if kind.__name__ != "CFunc" or not kind.__module__.startswith("numba"):
        raise TypeError(f"model '{self.name}': set_compiled_residual expects a numba cfunc "
                        f"(made by @numba.cfunc(hdae.compiled_residual_signature())), got "
                        f"{kind.__module__}.{kind.__qualname__}")
    expected = compiled_residual_signature()
    if cfunc._sig != expected:
        raise TypeError(f"model '{self.name}': the compiled residual has the signature "
                        f"{cfunc._sig}, expected {expected} (t, x, der_x, r, p, n)")
    from ._hdae import ModelError

    unknowns, equations = len(self.variables), len(self.equations)
    if unknowns != equations or unknowns == 0:
        raise ModelError(f"model '{self.name}': a compiled residual needs as many equations as "
                         f"unknowns, at least one; the model declares {unknowns} unknowns and "
                         f"{equations} equations")
    self._compiled_residual = cfunc  # keeps the machine code alive while the model uses it
    self._set_compiled_residual(cfunc.address)


def install(model_class):
    model_class.set_compiled_residual = set_compiled_residual
