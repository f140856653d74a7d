// Parameter sweeps over threads: one run per point, each with a model of its own made by the
// factory, so nothing is shared between threads but the read-only point list. A point whose
// model rejects a parameter, whose run fails or whose model throws is reported with its status
// and message; all other points still run. (The Python package's hdae.sweep does the same on a
// Dask cluster.)
//
//   auto outcomes = hdae::sweep([] { return std::make_unique<IdealClutch>(); },
//                               {{{"J2", 0.3}}, {{"J2", 0.5}}}, options, {"w1"}, 2);
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "hdae/model.hpp"
#include "hdae/options.hpp"
#include "hdae/status.hpp"

namespace hdae {

/// Parameter values of one point, set by name (SimulationModel::set_parameter) in this order.
using ParameterPoint = std::vector<std::pair<std::string, double>>;

/// Makes a fresh model; called once per point, possibly on several threads at once.
using SweepFactory = std::function<std::unique_ptr<SimulationModel>()>;

/// What one point gave.
struct SweepOutcome {
  ParameterPoint parameters;
  /// The run's status; Outcome::kModelFailure with the message when a parameter was rejected
  /// or model code threw, kEngineFailure when the engine failed, kNotRun when the factory
  /// threw.
  SimulationStatus status;
  /// Value of each requested column in the last row (NaN when the run stored no row).
  std::vector<double> final_values;
};

/// Runs every point with options on up to `threads` threads (0: one per hardware thread) and
/// returns the outcomes in the order of points. `final_columns` names the columns whose last
/// value is reported; an unknown name is reported as that point's failure.
[[nodiscard]] std::vector<SweepOutcome> sweep(const SweepFactory& factory,
                                              const std::vector<ParameterPoint>& points,
                                              const SimulationOptions& options,
                                              const std::vector<std::string>& final_columns,
                                              std::size_t threads = 0);

}  // namespace hdae
