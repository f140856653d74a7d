// The parts of the extension module hdae._hdae (docs/design.md, "The Python package"), one
// function per concern; module.cpp calls them in order: errors and options first, because the
// others refer to their types.
#pragma once

#include <pybind11/pybind11.h>

namespace hdae::python {

/// hdae.OptionError, hdae.ModelError (both ValueError), hdae.IoError (OSError),
/// hdae.ModelCallbackError and hdae.EngineError (RuntimeError, with partial_result).
void bind_errors(pybind11::module_& m);
/// SimulationOptions and its enums.
void bind_options(pybind11::module_& m);
/// Result (the table as numpy views), status, event records.
void bind_result(pybind11::module_& m);
/// SimulationModel, the handles, and hdae.Model for models written in Python.
void bind_model(pybind11::module_& m);
/// simulate() and Simulator.
void bind_run(pybind11::module_& m);
/// The bundled models by name (hdae::models::catalog), for python/hdae/models.py.
void bind_catalog(pybind11::module_& m);
/// hdae::fmi::load, for python/hdae/_fmi.py (built with HDAE_BUILD_FMI).
void bind_fmi(pybind11::module_& m);

}  // namespace hdae::python
