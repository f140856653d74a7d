// CoSimulationModel (cosimulation_model.hpp): the FMU's parameters as the model's, and its run
// as a sequence of communication steps, one per output interval.
#include "cosimulation_model.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "hdae/errors.hpp"
#include "hdae/record_selection.hpp"
#include "settable_variables.hpp"

namespace hdae::fmi::detail {
namespace {

/// Early returns at one instant before the FMU is taken to loop: an FMU handles all events of
/// an instant before it returns, so even a second return there is odd, and a hundred a hang.
constexpr int kMaxReturnsAtOneInstant = 100;

/// The output points after start_s, as the Simulator's grid has them: start_s + k h, or the
/// listed times, then stop_s; a point closer to the one before than the run's time resolution
/// (SimulationOptions::stop_s) is left out, as the Simulator leaves it out.
std::vector<OutputPoint> output_points(const SimulationOptions& o) {
  const double resolution = 1000.0 * std::numeric_limits<double>::epsilon() *
                            std::max({std::abs(o.start_s), std::abs(o.stop_s), 1.0});
  std::vector<OutputPoint> grid;
  if (o.output_times.empty()) {
    const double h = o.resolved_output_interval_s();
    for (std::size_t k = 1; o.start_s + static_cast<double>(k) * h < o.stop_s; ++k) {
      grid.push_back({k, o.start_s + static_cast<double>(k) * h});
    }
  } else {
    for (std::size_t i = 0; i < o.output_times.size(); ++i) {
      grid.push_back({i + 1, o.output_times[i]});
    }
  }
  grid.push_back({grid.size() + 1, o.stop_s});
  std::vector<OutputPoint> points;
  double last = o.start_s;
  for (const OutputPoint& p : grid) {
    if (p.t - last <= resolution && p.t != o.stop_s) continue;
    if (!points.empty() && p.t - last <= resolution) points.pop_back();  // stop_s replaces it
    if (p.t > o.start_s) points.push_back(p);
    last = p.t;
  }
  return points;
}

/// OptionError for rows asked to go elsewhere than to the result's table, which is where a
/// Co-Simulation run puts them: it makes none of the Simulator's sinks.
void check_sinks(const SimulationOptions& o) {
  if (o.sinks == std::vector<SinkSpec>{SinkSpec::memory()}) return;
  std::string given;
  for (const SinkSpec& sink : o.sinks) given += (given.empty() ? "" : ", ") + to_string(sink);
  throw OptionError(fmt::format(
      "SimulationOptions::sinks: a Co-Simulation run (Fmu::co_simulate) keeps its rows in the "
      "result's table only (sinks = [memory]), not [{}]; write the files from the result",
      given));
}

}  // namespace

CoSimulationModel::CoSimulationModel(UnpackDirectory directory,
                                     std::unique_ptr<SharedLibrary> library,
                                     ModelDescription description, const LoadOptions& options)
    : Fmu(description.info.model_name),
      directory_(std::move(directory)),
      library_(std::move(library)),
      description_(std::move(description)) {
  const InstanceSettings settings =
      instance_settings(description_, directory_.path(), options.debug_logging, log_);
  instance_ = std::make_unique<CoSimulationInstance>(*library_, description_, settings);
  settable_ = settable_variables(description_);
  const std::size_t parameter_count = description_.parameters.size();
  for (std::size_t k = 0; k < settable_.size(); ++k) {
    parameters_.push_back(declare_parameter(parameter_info(settable_[k], k >= parameter_count)));
  }
  for (const ContinuousState& s : description_.states) recordable_.push_back(s.state);
  for (const ContinuousState& s : description_.states) recordable_.push_back(s.derivative);
  for (const ScalarVariable& o : description_.outputs) {
    // An output that is a state or a derivative has its column already.
    const bool known = std::any_of(recordable_.begin(), recordable_.end(),
                                   [&](const ScalarVariable& v) { return v.name == o.name; });
    if (!known) recordable_.push_back(o);
  }
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
  for (std::size_t k = 0; k < recordable_.size(); ++k) {
    const ColumnKind kind = k < states       ? ColumnKind::kState
                            : k < 2 * states ? ColumnKind::kDerivative
                                             : ColumnKind::kOutput;
    columns.push_back({.name = recordable_[k].name, .unit = recordable_[k].unit, .kind = kind});
  }
  return columns;
}

std::vector<ColumnInfo> CoSimulationModel::select(const SimulationOptions& options) {
  const std::vector<ColumnInfo> all = columns();
  recording_ = {};
  std::vector<ColumnInfo> selected;
  for (const std::size_t c : recorded_columns(all, options, structure().name)) {
    selected.push_back(all[c]);
    recording_.variables.push_back(recordable_[c]);
  }
  recording_.values.assign(selected.size(), 0.0);
  return selected;
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
  recording_.holding = false;
  instance_->get_reals(recording_.variables, recording_.values);
  result.table.append(t, recording_.values);
  result.status.t = t;
}

void CoSimulationModel::hold(double t) {
  instance_->get_reals(recording_.variables, recording_.values);
  recording_.held = recording_.values;
  recording_.held_t = t;
  recording_.holding = true;
}

void CoSimulationModel::record_held(SimulationResult& result) {
  if (!recording_.holding) return;
  recording_.holding = false;
  result.table.append(recording_.held_t, recording_.held);
  result.status.t = recording_.held_t;
}

void CoSimulationModel::step_through(const std::vector<OutputPoint>& points,
                                     const SimulationOptions& options, SimulationResult& result) {
  double t = options.start_s;
  for (const OutputPoint& point : points) {
    if (options.cancel != nullptr && options.cancel->load()) {
      record_held(result);
      result.status.outcome = Outcome::kInterrupted;
      result.status.message = "interrupted";
      return;
    }
    const StepOutcome step = step_to(t, point.t, result);
    if (step.terminate) {
      record(step.last_successful_time, result);  // the run's last row
      stop_by_model(step.last_successful_time, result);
      return;
    }
    t = point.t;
    // The stop time's row is the run's last, recorded whatever the row selection.
    if (&point == &points.back() || records_output_point(options, point.k)) {
      record(t, result);
    } else {
      hold(t);
    }
  }
  result.status.outcome = Outcome::kReachedStopTime;
}

StepOutcome CoSimulationModel::step_to(double t, double target, SimulationResult& result) {
  int returns_at_t = 0;
  for (;;) {
    const StepOutcome step = instance_->do_step(t, target - t);
    const bool event = step.early_return || step.event_handling_needed;
    if (step.terminate || !event) return step;
    // The FMU handled the event itself; it says when, not which kind or what changed.
    result.events.push_back(
        {.t = step.last_successful_time,
         .kind = EventKind::kState,
         .note = fmt::format("an event of FMU '{}' inside fmi3DoStep ({})", instance_->fmu_name(),
                             step.early_return ? "early return" : "eventHandlingNeeded")});
    ++result.statistics.state_events;
    if (step.last_successful_time >= target) return step;
    returns_at_t = step.last_successful_time > t ? 0 : returns_at_t + 1;
    if (returns_at_t > kMaxReturnsAtOneInstant) {
      throw FmuError(fmt::format("FMU '{}': fmi3DoStep returned early {} times at t = {}",
                                 instance_->fmu_name(), returns_at_t, t));
    }
    t = step.last_successful_time;
  }
}

void CoSimulationModel::stop_by_model(double t, SimulationResult& result) {
  const std::string message =
      fmt::format("FMU '{}' asked to terminate the simulation (fmi3DoStep)", instance_->fmu_name());
  // As a Model Exchange run records the FMU's request: a terminal event with the reason.
  result.events.push_back({.t = t, .kind = EventKind::kTerminal, .note = message});
  result.status.outcome = Outcome::kStoppedByModel;
  result.status.message = message;
}

SimulationResult CoSimulationModel::co_simulate(const SimulationOptions& options) {
  options.validate();
  check_sinks(options);
  SimulationResult result;
  result.table = ResultTable(select(options));
  try {
    start(options);
    record(options.start_s, result);
    step_through(output_points(options), options, result);
  } catch (const FmuError& e) {
    record_held(result);  // the last communication point reached
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
