// Turning a failed run into a Python exception that carries the partial result.
#pragma once

#include <exception>
#include <vector>

#include "hdae/model.hpp"

namespace hdae::python {

/// Rethrows failure (needs the GIL) as a Python exception. A run ended by model code
/// (hdae::ModelCallbackError) whose nested exception came from Python re-raises that very
/// Python exception, type and traceback kept, with attribute partial_result and the engine's
/// message (phase and time) added as a note; other run errors become hdae.ModelCallbackError
/// or hdae.EngineError with partial_result; anything else goes through pybind11's
/// translators (OptionError -> hdae.OptionError, ...).
/// parameters are the model's during the run, kept with the partial result.
[[noreturn]] void raise_failure(const std::exception_ptr& failure,
                                const std::vector<ParameterInfo>& parameters);

}  // namespace hdae::python
