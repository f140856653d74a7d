// One run of a model from Python, as hdae._hdae._simulate makes it (run.cpp): shared with the
// runs that bring their own loop, such as an imported Co-Simulation FMU's (fmi.cpp), so that
// they release the GIL, answer Ctrl-C and raise failures with the partial result alike.
#pragma once

#include <functional>

#include <pybind11/pybind11.h>

#include "hdae/model.hpp"
#include "hdae/options.hpp"
#include "hdae/result.hpp"

namespace hdae::python {

/// What runs the model: hdae::simulate, or a model's own run.
using ModelRun = std::function<SimulationResult(SimulationModel&, const SimulationOptions&)>;

/// run(model, options) with the GIL released and Ctrl-C cancelling it (options.cancel is set
/// here); returns an hdae.Result, or raises the failure with the partial result (errors.hpp).
pybind11::object run_model(SimulationModel& model, SimulationOptions options, const ModelRun& run);

}  // namespace hdae::python
