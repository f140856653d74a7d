#include "simulator/simulation_run.hpp"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "events/same_time.hpp"
#include "hdae/errors.hpp"
#include "simulator/result_size.hpp"
#include "simulator/run_settings.hpp"

namespace hdae::detail {
namespace {

/// The run's unknowns at its start: the model's, with their start values.
std::vector<double> start_values(const ModelStructure& s) {
  const std::span<const double> start = s.variables.starts();
  return {start.begin(), start.end()};
}

std::vector<double> derivative_start_values(const ModelStructure& s) {
  std::vector<double> der_x(s.num_unknowns());
  s.variables.for_each_declared(
      [&der_x](std::size_t j, const VariableInfo& v) { der_x[j] = v.der_start.value_or(0.0); });
  return der_x;
}

/// The model at its start and the options checked against it: the options' own rules, the
/// model's declarations, and the rules that need both. The model is reset first, because the
/// run reads its structure now, and a model whose unknowns changed in an earlier run
/// (EventContext::unknowns_changed) declares its start structure again only after reset().
SimulationOptions options_at_start(SimulationModel& model, SimulationOptions options) {
  model.reset();
  options.validate();
  const ModelStructure& structure = model.structure();
  structure.validate();
  check_linear_solver(options, structure);
  return options;
}

}  // namespace

SimulationRun::RunUnknowns SimulationRun::unknowns_at_start(const ModelStructure& s) {
  return {.structure = &s,
          .n = s.num_unknowns(),
          .row_kinds = s.equations.kinds(),
          .x = start_values(s),
          .der_x = derivative_start_values(s),
          .change = StructureChange(s),
          .has_pattern = !s.sparsity.empty()};
}

namespace {

/// The run has an outcome of its own: it reached its end, however.
bool has_ended(const SimulationStatus& status) {
  return status.outcome != Outcome::kNotRun && status.outcome != Outcome::kRunning;
}

}  // namespace

SimulationRun::SimulationRun(SimulationModel& model, SimulationOptions options)
    : in_use_(model),
      options_(options_at_start(model, std::move(options))),
      crossings_(model.structure(), options_.crossing_hysteresis),
      model_(model, &crossings_),
      u_(unknowns_at_start(model.structure())),
      schedule_(*u_.structure),
      root_location_(model_, crossings_, u_.n),
      stop_watch_(options_.cancel, options_.max_wall_time_s),
      reinit_(std::make_unique<reinit::Reinitializer>(model_, reinit_settings(options_),
                                                      sparse_pattern(options_, *u_.structure))),
      event_iteration_(EventState{model_, crossings_, u_.row_kinds, schedule_, u_.x, u_.der_x},
                       EventSettings{.max_passes = options_.max_event_iterations,
                                     .jump_tolerance = options_.jump_tol_factor * options_.rel_tol},
                       *this),
      chattering_(chattering_settings(options_), crossing_names(*u_.structure)),
      output_(model_, options_),
      grid_(options_),
      step_{.t = options_.start_s, .tell_model = model.wants_completed_steps()},
      continuation_(model_, crossings_),
      integration_(model_, crossings_, stop_watch_, options_,
                   [this](LogLevel level, std::string_view message) { log(level, message); }) {
  options_.check_result_size(output_.recorder.columns().size());
  output_.sinks.attach(output_.recorder, event_log_.observers);
}

SimulationRun::~SimulationRun() {
  try {
    end_output();
  } catch (...) {  // NOLINT(bugprone-empty-catch): a destructor must not throw
  }
}

void SimulationRun::add_row_sink(RowSink& sink) {
  if (life_.stage != Stage::kCreated) {
    throw std::logic_error("Simulator::add_row_sink: the run is already initialized");
  }
  output_.recorder.add_sink(sink);
}

void SimulationRun::add_event_observer(EventObserver& observer) {
  if (life_.stage != Stage::kCreated) {
    throw std::logic_error("Simulator::add_event_observer: the run is already initialized");
  }
  event_log_.observers.push_back(&observer);
}

void SimulationRun::refuse_after_take(const char* call) const {
  if (life_.taken && !has_ended(life_.status)) {
    throw std::logic_error(fmt::format(
        "Simulator::{}: the result was taken before the run ended (take_result() ends the run; "
        "it cannot go on)",
        call));
  }
}

const SimulationStatus& SimulationRun::initialize() {
  refuse_after_take("initialize");
  if (life_.stage != Stage::kCreated) return life_.status;
  life_.stage = Stage::kRunning;
  const double t0 = options_.start_s;
  life_.status = {Outcome::kRunning, t0, {}};
  try {
    stop_watch_.start();
    output_.recorder.begin();
    {
      PhaseScope scope(model_, ModelPhase::kInitialization);
      model_.reset(t0);
    }
    const std::vector<double> x_start = u_.x;
    const std::vector<double> der_start = u_.der_x;
    const std::size_t logged = event_log_.records.size();
    const bool settled = run_event(t0, EventKind::kInitial);
    // Without crossings and time events no event follows t0: the factors the re-initialization
    // keeps so that later events refactorize in the same pivot order would only hold memory
    // through the run (about as much as IDA's own factors).
    if (u_.structure->crossings.empty() && u_.structure->time_events.empty())
      reinit_->release_factors();
    // Both limits at t0 when the initial jump changed the state, as at every event.
    if (settled && !event_log_.records[logged].jumps.empty())
      output_.recorder.store(t0, x_start, der_start);
    store_row(t0);
    // A listed output time at t0 has its row already (the grid starts after t0).
    if (!options_.output_times.empty()) grid_.skip_through(t0);
    if (last_event_.ending) {
      finish(*last_event_.ending);
    } else {
      start_integration();
    }
  } catch (...) {
    end_by_exception();
  }
  return life_.status;
}

const SimulationStatus& SimulationRun::advance_to(double t, AdvanceEnd end) {
  refuse_after_take("advance_to");
  if (life_.stage == Stage::kCreated) initialize();
  if (life_.stage == Stage::kEnded || life_.status.outcome != Outcome::kRunning)
    return life_.status;
  if (!(t >= step_.t && t <= options_.stop_s)) {
    throw std::invalid_argument(fmt::format(
        "Simulator::advance_to: t = {} is outside [{}, {}] (the time reached and stop_s)", t,
        step_.t, options_.stop_s));
  }
  try {
    run_until(t, end);
  } catch (...) {
    end_by_exception();
  }
  if (life_.status.outcome == Outcome::kRunning)
    life_.status.t = step_.t;  // the time reached, as time()
  return life_.status;
}

SimulationResult SimulationRun::take_result() {
  if (life_.stage != Stage::kEnded) {
    life_.stage = Stage::kEnded;
    end_output();
  }
  life_.taken = true;
  SimulationResult r;
  r.table = output_.sinks.table().take_table();
  r.events = std::move(event_log_.records);
  r.status = life_.status;
  r.statistics = statistics();
  // The run is over: the model no longer sees calls from it and may start another.
  in_use_.release();
  return r;
}

void SimulationRun::end_output() {
  if (output_.recorder.ended()) return;
  output_.sinks.set_status(life_.status);
  output_.recorder.end();
}

const Statistics& SimulationRun::statistics() const {
  if (integration_.started()) {
    const sundials::IntegratorCounters c = integration_.counters();
    Statistics& s = statistics_;
    s.steps = c.steps;
    s.residual_evaluations = c.residual_evaluations + c.dq_residual_evaluations;
    s.jacobian_residual_evaluations = c.dq_residual_evaluations;
    s.jacobian_evaluations = c.jacobian_evaluations;
    s.error_test_failures = c.error_test_failures;
    s.convergence_failures = c.convergence_failures;
    s.root_function_evaluations = c.root_evaluations;
    s.jacobian_colors = integration_.integrator().jacobian_colors();
    s.integrator = integration_.method_name();
    s.method_switches = integration_.method_switches();
    s.ida_nre = c.residual_evaluations;
    s.ida_nre_ls = c.ls_residual_evaluations;
    s.ida_nni = c.nonlinear_iterations;
    s.ida_nncf = c.convergence_failures;
    s.ida_netf = c.error_test_failures;
    s.ida_nsetups = c.linear_setups;
    s.ida_nje = c.jacobian_evaluations;
    s.jacobian_time_s = integration_.jacobian_time_s();
  }
  if (life_.stage == Stage::kRunning) statistics_.wall_time_s = stop_watch_.elapsed_s();
  if (life_.stage == Stage::kEnded) statistics_.wall_time_s = life_.wall_time_s;
  return statistics_;
}

void SimulationRun::start_integration() {
  integration_.renew();
  restart_integrator(options_.start_s);
}

void SimulationRun::log(LogLevel level, std::string_view message) const {
  if (level > options_.log_level || options_.log_level == LogLevel::kOff) return;
  if (options_.log_sink) {
    options_.log_sink(level, message);
  } else {
    std::cerr << "hdae: " << message << '\n';
  }
}

}  // namespace hdae::detail
