// FmuModel at the start of a run and at events (fmu_model.hpp): the FMU's initialization,
// its discrete-state updates inside the engine's event iteration, new state values as a jump,
// its next event time as a time event, its requests for an event after an integrator step
// (CompletedIntegratorStep), and its request to stop.
#include <fmt/format.h>

#include "fmu_model.hpp"

namespace hdae::fmi::detail {
namespace {

/// Updates at one instant before the FMU is taken to loop: far more than any model's cascade
/// of discrete changes needs, far fewer than would hide a hang.
constexpr int kMaxUpdates = 1000;

const char* update_function(FmiVersion version) {
  return version == FmiVersion::kFmi3 ? "fmi3UpdateDiscreteStates" : "fmi2NewDiscreteStates";
}

}  // namespace

void FmuModel::reset() { run_ = {}; }

void FmuModel::start_run(double t0) {
  instance_->reset();
  // Reset returns every variable to its start value, DAE mode's switch included.
  if (description_.dae) instance_->enable_dae_mode(description_.dae->enable);
  for (std::size_t k = 0; k < settable_.size(); ++k) {
    buffers_.settable[k] = value(parameters_[k]);
  }
  instance_->set_reals(settable_, buffers_.settable);
  instance_->initialize(t0, description_.info.tolerance);
  // After initialization the FMU is in Event Mode: the updates of t0 come first.
  run_.initial = settle(t0);
  instance_->enter_continuous_time_mode();
  run_.started = true;
}

DiscreteUpdate FmuModel::settle(double t) {
  DiscreteUpdate all;
  for (int k = 0; k < kMaxUpdates; ++k) {
    const DiscreteUpdate u = instance_->update_discrete_states();
    all.terminate = all.terminate || u.terminate;
    all.nominals_changed = all.nominals_changed || u.nominals_changed;
    all.values_changed = all.values_changed || u.values_changed;
    all.next_event_time = u.next_event_time;
    if (!u.needs_update || u.terminate) return all;
  }
  throw FmuError(fmt::format("FMU '{}': {} asked for another update {} times at t = {}",
                             instance_->fmu_name(), update_function(description_.version),
                             kMaxUpdates, t));
}

bool FmuModel::completed_step(double t, std::span<const double> x,
                              std::span<const double> /*der_x*/) {
  // The FMU's last evaluation may have been a trial point of IDA's corrector: it is handed the
  // step's end first, as the standard asks of the call after an accepted step.
  set_point(t, x);
  const StepReport report = instance_->completed_integrator_step();
  run_.terminate_after_step = report.terminate;
  return report.enter_event_mode || report.terminate;
}

void FmuModel::on_event(EventContext& event) {
  if (!run_.started) start_run(event.t());
  if (run_.initial) {
    // The first pass at t0: the updates of initialization, and the FMU's initial states.
    DiscreteUpdate initial = *run_.initial;
    run_.initial.reset();
    initial.values_changed = true;
    apply(initial, event, "initialization");
    return;
  }
  if (run_.terminate_after_step) {
    run_.terminate_after_step = false;
    event.terminate(fmt::format(
        "FMU '{}' asked to terminate the simulation "
        "({}CompletedIntegratorStep)",
        instance_->fmu_name(), description_.version == FmiVersion::kFmi3 ? "fmi3" : "fmi2"));
    return;
  }
  // A crossing flipped, a time event fired, the FMU asked for an event after a step, or several
  // at once: Event Mode at the instant's state.
  for (std::size_t i = 0; i < states_.size(); ++i) buffers_.x[i] = event.x(states_[i]);
  instance_->set_time(event.t());
  if (!states_.empty()) instance_->set_states(buffers_.x);
  set_algebraic(event);
  instance_->enter_event_mode();
  const DiscreteUpdate update = settle(event.t());
  instance_->enter_continuous_time_mode();
  apply(update, event, update_function(description_.version));
}

void FmuModel::apply(const DiscreteUpdate& update, EventContext& event, const char* function) {
  if (update.values_changed && !states_.empty()) {
    instance_->get_states(buffers_.x);
    for (std::size_t i = 0; i < states_.size(); ++i) event.set(states_[i], buffers_.x[i]);
  }
  // The FMU's algebraic variables are guesses for the jump solve, which makes them consistent.
  if (update.values_changed) take_algebraic(event);
  // New nominals are not taken: the engine holds a run's nominals from its start.
  if (update.next_event_time && *update.next_event_time > event.t()) {
    event.schedule(next_event_, *update.next_event_time);
  } else {
    event.cancel(next_event_);
  }
  if (update.terminate) {
    event.terminate(fmt::format("FMU '{}' asked to terminate the simulation ({})",
                                instance_->fmu_name(), function));
  }
}

}  // namespace hdae::fmi::detail
