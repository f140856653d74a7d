// The instance of an exported FMU: its life cycle and its steps (fmu_instance.hpp); the values
// by value reference are in instance_values.cpp.
#include "fmu_instance.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

namespace hdae::fmu_export {

FmuInstance::FmuInstance(FmuModel made, FmuLogger logger, bool early_return_allowed)
    : logger_(std::move(logger)),
      model_(std::move(made.model)),
      defaults_(std::move(made.options)),
      layout_(model_->structure()),
      early_return_allowed_(early_return_allowed) {
  for (const ParameterInfo& p : model_->structure().parameters) {
    exported_parameters_.push_back(p.value);
  }
}

FmuInstance::~FmuInstance() = default;

void FmuInstance::require(bool allowed, const char* function) const {
  if (allowed) return;
  constexpr const char* kPhases[] = {"Instantiated", "Initialization Mode", "Step Mode",
                                     "Terminated", "failed (only fmi3Reset or fmi3FreeInstance)"};
  throw std::logic_error(fmt::format("{} is not allowed in the state {}", function,
                                     kPhases[static_cast<int>(phase_)]));
}

void FmuInstance::enter_initialization(std::optional<double> tolerance, double start_s,
                                       std::optional<double> stop_s) {
  require(phase_ == Phase::kInstantiated, "fmi3EnterInitializationMode");
  if (!std::isfinite(start_s) || (stop_s && !(*stop_s > start_s))) {
    throw std::invalid_argument(fmt::format(
        "startTime {} and stopTime {} do not make an interval (finite, stop after start)", start_s,
        stop_s ? fmt::format("{}", *stop_s) : std::string("(not defined)")));
  }
  tolerance_ = tolerance;
  start_s_ = start_s;
  stop_s_ = stop_s;
  phase_ = Phase::kInitialization;
  outputs_current_ = false;
}

SimulationOptions FmuInstance::run_options() const {
  SimulationOptions o = defaults_;
  // Without a stop time the run covers the span of the DefaultExperiment from startTime on:
  // hdae fixes a run's end when it starts (its time resolution and event rules scale with it).
  o.stop_s = stop_s_ ? *stop_s_ : start_s_ + (defaults_.stop_s - defaults_.start_s);
  o.start_s = start_s_;
  if (tolerance_) o.rel_tol = *tolerance_;
  // No rows are kept: the importer reads the values at the communication points.
  o.sinks.clear();
  o.output_times.clear();
  o.output_interval_s.reset();
  o.record_rows = RecordedRows::kEventsOnly;
  const FmuLogger* logger = &logger_;
  o.log_sink = [logger](LogLevel level, std::string_view message) {
    logger->warning(kLogSolver,
                    fmt::format("{}: {}", level == LogLevel::kError ? "error" : "note", message));
  };
  return o;
}

void FmuInstance::exit_initialization() {
  require(phase_ == Phase::kInitialization, "fmi3ExitInitializationMode");
  phase_ = Phase::kFailed;  // until the run has started
  simulator_ = std::make_unique<Simulator>(*model_, run_options());
  const SimulationStatus& status = simulator_->initialize();
  report_events();
  outputs_current_ = false;
  if (status.outcome != Outcome::kRunning && !status.ok()) {
    throw std::runtime_error(fmt::format("the initialization at t = {} failed ({}): {}", status.t,
                                         to_string(status.outcome), status.message));
  }
  phase_ = Phase::kStep;
}

StepReport FmuInstance::do_step(double current, double step) {
  require(phase_ == Phase::kStep, "fmi3DoStep");
  if (!(step > 0.0) || !std::isfinite(step)) {
    throw std::invalid_argument(
        fmt::format("communicationStepSize must be positive and finite, got {}", step));
  }
  const double now = simulator_->time();
  const double slack = 1e3 * std::numeric_limits<double>::epsilon() * std::max(1.0, std::abs(now));
  if (std::abs(current - now) > slack) {
    throw std::invalid_argument(fmt::format(
        "currentCommunicationPoint {:.17g} is not the time the FMU has reached, {:.17g}", current,
        now));
  }
  const double stop = simulator_->options().stop_s;
  double target = current + step;
  if (target > stop + slack) {
    throw std::invalid_argument(
        fmt::format("a step to {:.17g} passes the stop time {:.17g} (fmi3EnterInitializationMode's "
                    "stopTime, or the DefaultExperiment's span when none was given)",
                    target, stop));
  }
  target = std::min(target, stop);
  outputs_current_ = false;
  phase_ = Phase::kFailed;  // unless the step succeeds
  const SimulationStatus& status =
      early_return_allowed_ ? simulator_->advance_to_event(target) : simulator_->advance_to(target);
  report_events();
  if (status.outcome != Outcome::kRunning && !status.ok()) {
    throw std::runtime_error(fmt::format("the run failed at t = {:.17g} ({}): {}", status.t,
                                         to_string(status.outcome), status.message));
  }
  phase_ = Phase::kStep;
  const double reached = simulator_->time();
  return {status.outcome == Outcome::kStoppedByModel, reached < target, reached};
}

void FmuInstance::report_events() {
  const std::vector<EventRecord>& events = simulator_->events();
  for (; events_reported_ < events.size(); ++events_reported_) {
    const EventRecord& e = events[events_reported_];
    std::string jumps;
    for (const JumpRecord& j : e.jumps) {
      jumps += fmt::format(" {}: {:.9g} -> {:.9g};", j.variable, j.before, j.after);
    }
    logger_.info(kLogEvents, fmt::format("{} event at t = {:.17g}, handled inside the step;{}",
                                         to_string(e.kind), e.t, jumps));
  }
}

void FmuInstance::terminate() {
  require(phase_ == Phase::kStep || phase_ == Phase::kInitialization, "fmi3Terminate");
  phase_ = Phase::kTerminated;
}

void FmuInstance::reset() {
  simulator_.reset();  // gives the model free for set_parameter
  const std::vector<ParameterInfo>& parameters = model_->structure().parameters;
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    if (parameters[i].value != exported_parameters_[i]) {
      model_->set_parameter(parameters[i].name, exported_parameters_[i]);
    }
  }
  phase_ = Phase::kInstantiated;
  tolerance_.reset();
  stop_s_.reset();
  start_s_ = 0.0;
  outputs_current_ = false;
  events_reported_ = 0;
}

}  // namespace hdae::fmu_export
