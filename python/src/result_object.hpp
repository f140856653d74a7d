// The Python face of hdae::SimulationResult: an immutable object that shares the result, so
// numpy views of its table (time, columns) stay valid as long as any of them lives.
#pragma once

#include <memory>
#include <vector>

#include <pybind11/pybind11.h>

#include "hdae/result.hpp"

namespace hdae::python {

struct ResultObject {
  std::shared_ptr<const SimulationResult> result;
  /// The model's parameters during the run (Result.parameters, <stem>.params.csv).
  std::vector<ParameterInfo> parameters;
};

/// A new hdae.Result owning (a share of) result, made with these parameter values.
[[nodiscard]] pybind11::object wrap_result(std::shared_ptr<const SimulationResult> result,
                                           std::vector<ParameterInfo> parameters);

/// The counters as a dict (name -> int or float), in the order of hdae::Statistics.
[[nodiscard]] pybind11::dict statistics_dict(const Statistics& s);

}  // namespace hdae::python
