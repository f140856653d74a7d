// CoSimulationModel (cosimulation_model.hpp): the FMU's parameters as the model's, and its run
// as a sequence of communication steps, one per output interval.
#include "cosimulation_model.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <memory>

#include <fmt/format.h>

#include "hdae/errors.hpp"
#include "settable_variables.hpp"

namespace hdae::fmi::detail {
namespace {

/// The output times after start_s, as the Simulator's grid has them: start_s + k h, or the
/// listed times, then stop_s; a time closer to the one before than the run's time resolution
/// (SimulationOptions::stop_s) is left out, as the Simulator leaves it out.
std::vector<double> output_times(const SimulationOptions& o) {
  const double resolution = 1000.0 * std::numeric_limits<double>::epsilon() *
                            std::max({std::abs(o.start_s), std::abs(o.stop_s), 1.0});
  std::vector<double> grid;
  if (o.output_times.empty()) {
    const double h = o.resolved_output_interval_s();
    for (std::size_t k = 1; o.start_s + static_cast<double>(k) * h < o.stop_s; ++k) {
      grid.push_back(o.start_s + static_cast<double>(k) * h);
    }
  } else {
    grid = o.output_times;
  }
  grid.push_back(o.stop_s);
  std::vector<double> times;
  double last = o.start_s;
  for (const double t : grid) {
    if (t - last <= resolution && t != o.stop_s) continue;
    if (!times.empty() && t - last <= resolution) times.pop_back();  // stop_s replaces it
    if (t > o.start_s) times.push_back(t);
    last = t;
  }
  return times;
}

}  // namespace

CoSimulationModel::CoSimulationModel(UnpackDirectory directory,
                                     std::unique_ptr<SharedLibrary> library,
                                     ModelDescription description, const LoadOptions& options)
    : Fmu(description.info.model_name),
      directory_(std::move(directory)),
      library_(std::move(library)),
      description_(std::move(description)) {
  const InstanceSettings settings{.fmu_name = description_.info.path.filename().string(),
                                  .resources = directory_.path() / "resources",
                                  .debug_logging = options.debug_logging,
                                  .log = &log_};
  instance_ = std::make_unique<CoSimulationInstance>(*library_, description_, settings);
  settable_ = settable_variables(description_);
  const std::size_t parameter_count = description_.parameters.size();
  for (std::size_t k = 0; k < settable_.size(); ++k) {
    parameters_.push_back(declare_parameter(parameter_info(settable_[k], k >= parameter_count)));
  }
  for (const ContinuousState& s : description_.states) recorded_.push_back(s.state);
  for (const ContinuousState& s : description_.states) recorded_.push_back(s.derivative);
  for (const ScalarVariable& o : description_.outputs) {
    // An output that is a state or a derivative has its column already.
    const bool known = std::any_of(recorded_.begin(), recorded_.end(),
                                   [&](const ScalarVariable& v) { return v.name == o.name; });
    if (!known) recorded_.push_back(o);
  }
  values_.assign(recorded_.size(), 0.0);
}

void CoSimulationModel::evaluate(Evaluation& /*e*/) {
  throw ModelError(fmt::format(
      "FMU '{}' is imported for Co-Simulation: it steps itself (Fmu::co_simulate) and has no "
      "equations for hdae's solvers; load it as Model Exchange to run it with the Simulator",
      instance_->fmu_name()));
}

std::vector<ColumnInfo> CoSimulationModel::columns() const {
  const std::size_t states = description_.states.size();
  std::vector<ColumnInfo> columns;
  for (std::size_t k = 0; k < recorded_.size(); ++k) {
    const ColumnKind kind = k < states       ? ColumnKind::kState
                            : k < 2 * states ? ColumnKind::kDerivative
                                             : ColumnKind::kOutput;
    columns.push_back({.name = recorded_[k].name, .unit = recorded_[k].unit, .kind = kind});
  }
  return columns;
}

void CoSimulationModel::start(const SimulationOptions& options) {
  instance_->reset();
  std::vector<double> values(settable_.size());
  for (std::size_t k = 0; k < settable_.size(); ++k) values[k] = value(parameters_[k]);
  instance_->set_reals(settable_, values);
  // The run's relative tolerance is the FMU's, as it is the solver's in a Model Exchange run.
  instance_->initialize(options.start_s, options.stop_s, options.rel_tol);
}

void CoSimulationModel::record(double t, SimulationResult& result) {
  instance_->get_reals(recorded_, values_);
  result.table.append(t, values_);
  result.status.t = t;
}

void CoSimulationModel::step_through(const std::vector<double>& times,
                                     const SimulationOptions& options, SimulationResult& result) {
  double t = options.start_s;
  for (const double next : times) {
    if (options.cancel != nullptr && options.cancel->load()) {
      result.status.outcome = Outcome::kInterrupted;
      result.status.message = "interrupted";
      return;
    }
    const StepOutcome step = instance_->do_step(t, next - t);
    t = step.terminate ? step.last_successful_time : next;
    record(t, result);
    if (step.terminate) {
      result.status.outcome = Outcome::kStoppedByModel;
      result.status.message = fmt::format("FMU '{}' asked to terminate the simulation (fmi3DoStep)",
                                          instance_->fmu_name());
      return;
    }
  }
  result.status.outcome = Outcome::kReachedStopTime;
}

SimulationResult CoSimulationModel::co_simulate(const SimulationOptions& options) {
  options.validate();
  SimulationResult result;
  result.table = ResultTable(columns());
  try {
    start(options);
    record(options.start_s, result);
    step_through(output_times(options), options, result);
  } catch (const FmuError& e) {
    result.status.outcome = Outcome::kModelFailure;
    result.status.message = e.what();
    auto partial = std::make_shared<SimulationResult>(std::move(result));
    // Nested as in a Simulator's run, so that callers find the FMU's error the same way.
    std::throw_with_nested(ModelCallbackError(
        fmt::format("model '{}' failed during co-simulation: {}", structure().name, e.what()),
        std::move(partial)));
  }
  return result;
}

}  // namespace hdae::fmi::detail
