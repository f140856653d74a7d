// CoSimulationModel (cosimulation_model.hpp): the FMU's parameters as the model's, and its run
// as a sequence of communication steps, one per output interval, guarded against an FMU that
// keeps returning early at one instant.
#include "cosimulation_model.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <memory>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "hdae/errors.hpp"
#include "hdae/record_selection.hpp"
#include "settable_variables.hpp"

namespace hdae::fmi::detail {
namespace {

/// Early returns in a row at one instant before the FMU is taken to loop: an FMU handles all
/// events of an instant before it returns, so even a second return there is odd, and a hundred
/// a hang.
constexpr int kMaxReturnsAtOneInstant = 100;

/// The output points after start_s, as the Simulator's grid has them: start_s + k h, or the
/// listed times, then stop_s; a point closer to the one before than the run's time resolution
/// is left out, as the Simulator leaves it out.
std::vector<OutputPoint> output_points(const SimulationOptions& o) {
  const double resolution = time_resolution(o.start_s, o.stop_s);
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
  recorded_.clear();
  std::vector<ColumnInfo> selected;
  for (const std::size_t c : recorded_columns(all, options, structure().name)) {
    selected.push_back(all[c]);
    recorded_.push_back(recordable_[c]);
  }
  values_.assign(selected.size(), 0.0);
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

void CoSimulationModel::record(double t, Run& run) {
  instance_->get_reals(recorded_, values_);
  run.recorder.row(t, values_);
  run.result.status.t = t;
}

void CoSimulationModel::hold(double t, Run& run) {
  instance_->get_reals(recorded_, values_);
  run.recorder.hold(t, values_);
}

void CoSimulationModel::record_held(Run& run) {
  if (const std::optional<double> t = run.recorder.row_held()) run.result.status.t = *t;
}

void CoSimulationModel::step_through(const std::vector<OutputPoint>& points, Run& run) {
  double t = run.options.start_s;
  for (const OutputPoint& point : points) {
    if (stopped_from_outside(t, run)) return;
    const StepOutcome step = step_to(t, point.t, run);
    if (step.terminate) {
      record(step.last_successful_time, run);  // the run's last row
      stop_by_model(step.last_successful_time, step.terminated_by, run);
      return;
    }
    t = point.t;
    // The stop time's row is the run's last, recorded whatever the row selection.
    if (&point == &points.back() || records_output_point(run.options, point.k)) {
      record(t, run);
    } else {
      hold(t, run);
    }
  }
  run.result.status.outcome = Outcome::kReachedStopTime;
}

bool CoSimulationModel::stopped_from_outside(double t, Run& run) {
  const SimulationOptions& o = run.options;
  SimulationStatus& status = run.result.status;
  if (o.cancel != nullptr && o.cancel->load()) {
    status = {Outcome::kInterrupted, t, fmt::format("interrupted at t = {}", t)};
  } else if (o.max_wall_time_s > 0.0 &&
             std::chrono::duration<double>(std::chrono::steady_clock::now() - run.began).count() >
                 o.max_wall_time_s) {
    status = {Outcome::kWallClockLimit, t,
              fmt::format("wall-clock limit of {} s reached at t = {}", o.max_wall_time_s, t)};
  } else {
    return false;
  }
  // The last point reached is the run's last row, as when a Simulator's run stops so.
  record_held(run);
  return true;
}

StepOutcome CoSimulationModel::step_to(double t, double target, Run& run) {
  double instant = t;    // where the FMU last advanced to
  int returns_here = 0;  // early returns at that instant, the first included
  for (;;) {
    StepOutcome step = instance_->do_step(t, target - t);
    const bool event = step.early_return || step.event_handling_needed;
    if (step.terminate || !event) return step;
    // An advance the run cannot resolve is none: an FMU that crawls by round-off would loop
    // about as long as one that stays.
    if (step.last_successful_time - instant > time_resolution(instant, target)) {
      instant = step.last_successful_time;
      returns_here = 0;
    }
    // One record per instant: another return there reports no new event.
    if (++returns_here == 1) record_event(step, run);
    if (step.event_handling_needed && instance_->event_mode_used()) {
      step.terminate = instance_->event_mode(step.last_successful_time);
      if (step.terminate) {
        step.terminated_by = "fmi3UpdateDiscreteStates";
        return step;
      }
    }
    if (step.last_successful_time >= target) return step;
    if (returns_here >= kMaxReturnsAtOneInstant) {
      throw FmuError(fmt::format(
          "FMU '{}': fmi3DoStep returned early {} times in a row at t = {} without advancing "
          "(lastSuccessfulTime = {}); the FMU does not get past that instant",
          instance_->fmu_name(), returns_here, instant, step.last_successful_time));
    }
    t = step.last_successful_time;
  }
}

void CoSimulationModel::record_event(const StepOutcome& step, Run& run) {
  // The FMU says when, not which kind or what changed.
  const bool event_mode = step.event_handling_needed && instance_->event_mode_used();
  const std::string note =
      event_mode
          ? fmt::format("an event of FMU '{}' at the end of fmi3DoStep, handled in Event Mode",
                        instance_->fmu_name())
          : fmt::format("an event of FMU '{}' inside fmi3DoStep ({})", instance_->fmu_name(),
                        step.early_return ? "early return" : "eventHandlingNeeded");
  run.recorder.event({.t = step.last_successful_time, .kind = EventKind::kState, .note = note},
                     run.result);
  ++run.result.statistics.state_events;
}

void CoSimulationModel::stop_by_model(double t, const char* function, Run& run) {
  const std::string message = fmt::format("FMU '{}' asked to terminate the simulation ({})",
                                          instance_->fmu_name(), function);
  // As a Model Exchange run records the FMU's request: a terminal event with the reason.
  run.recorder.event({.t = t, .kind = EventKind::kTerminal, .note = message}, run.result);
  run.result.status.outcome = Outcome::kStoppedByModel;
  run.result.status.message = message;
}

void CoSimulationModel::run_through(Run& run) {
  const std::vector<ColumnInfo> columns = select(run.options);
  // Before the grid is made and the FMU stepped: a grid too large to keep is refused.
  run.options.check_result_size(columns.size());
  run.recorder.begin(columns);
  start(run.options);
  record(run.options.start_s, run);
  step_through(output_points(run.options), run);
}

SimulationResult CoSimulationModel::co_simulate(const SimulationOptions& options,
                                                const RunListeners& listeners) {
  options.validate();
  SimulationResult result;
  CoSimulationRecorder recorder(options, structure().parameters, listeners);
  Run run{options, result, recorder, std::chrono::steady_clock::now()};
  try {
    run_through(run);
  } catch (const FmuError& e) {
    record_held(run);  // the last communication point reached
    result.status.outcome = Outcome::kModelFailure;
    result.status.message = e.what();
    recorder.end(result);
    auto partial = std::make_shared<SimulationResult>(std::move(result));
    // Nested as in a Simulator's run, so that callers find the FMU's error the same way.
    std::throw_with_nested(ModelCallbackError(
        fmt::format("model '{}' failed during co-simulation: {}", structure().name, e.what()),
        std::move(partial)));
  }
  recorder.end(result);
  return result;
}

}  // namespace hdae::fmi::detail
