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
      structure_(&model.structure()),
      n_(structure_->num_unknowns()),
      row_kinds_(structure_->equations.kinds()),
      schedule_(*structure_),
      x_(start_values(*structure_)),
      der_x_(derivative_start_values(*structure_)),
      root_location_(model_, crossings_, n_),
      stop_watch_(options_.cancel, options_.max_wall_time_s),
      reinit_(std::make_unique<reinit::Reinitializer>(model_, reinit_settings(options_),
                                                      sparse_pattern(options_, *structure_))),
      event_iteration_(EventState{model_, crossings_, row_kinds_, schedule_, x_, der_x_},
                       EventSettings{.max_passes = options_.max_event_iterations,
                                     .jump_tolerance = options_.jump_tol_factor * options_.rel_tol},
                       *this),
      chattering_(chattering_settings(options_), crossing_names(*structure_)),
      recorder_(model_, options_),
      budget_(options_, recorder_.columns().size()),
      t_(options_.start_s),
      grid_(options_),
      continuation_(model_, crossings_),
      integration_(model_, crossings_, stop_watch_, options_,
                   [this](LogLevel level, std::string_view message) { log(level, message); }) {
  check_result_size(options_, recorder_.columns().size());
  crossing_infos_ = structure_->crossings;
  time_event_infos_ = structure_->time_events;
  if (options_.row_storage == RowStorage::kInMemory) recorder_.add_sink(table_);
  if (!options_.stream_csv_path.empty()) {
    csv_ = std::make_unique<CsvSink>(options_.stream_csv_path);
    recorder_.add_sink(*csv_);
  }
}

SimulationRun::~SimulationRun() {
  try {
    recorder_.end();
  } catch (...) {  // NOLINT(bugprone-empty-catch): a destructor must not throw
  }
}

void SimulationRun::add_row_sink(RowSink& sink) {
  if (stage_ != Stage::kCreated) {
    throw std::logic_error("Simulator::add_row_sink: the run is already initialized");
  }
  recorder_.add_sink(sink);
}

void SimulationRun::add_event_observer(EventObserver& observer) {
  if (stage_ != Stage::kCreated) {
    throw std::logic_error("Simulator::add_event_observer: the run is already initialized");
  }
  observers_.push_back(&observer);
}

void SimulationRun::refuse_after_take(const char* call) const {
  if (taken_ && !has_ended(status_)) {
    throw std::logic_error(fmt::format(
        "Simulator::{}: the result was taken before the run ended (take_result() ends the run; "
        "it cannot go on)",
        call));
  }
}

const SimulationStatus& SimulationRun::initialize() {
  refuse_after_take("initialize");
  if (stage_ != Stage::kCreated) return status_;
  stage_ = Stage::kRunning;
  const double t0 = options_.start_s;
  status_ = {Outcome::kRunning, t0, {}};
  try {
    stop_watch_.start();
    recorder_.begin();
    {
      PhaseScope scope(model_, ModelPhase::kInitialization);
      model_.reset(t0);
    }
    const std::vector<double> x_start = x_;
    const std::vector<double> der_start = der_x_;
    const std::size_t logged = events_.size();
    const bool settled = run_event(t0, EventKind::kInitial);
    // Without crossings and time events no event follows t0: the factors the re-initialization
    // keeps so that later events refactorize in the same pivot order would only hold memory
    // through the run (about as much as IDA's own factors).
    if (structure_->crossings.empty() && structure_->time_events.empty()) reinit_->release_factors();
    // Both limits at t0 when the initial jump changed the state, as at every event.
    if (settled && !events_[logged].jumps.empty()) recorder_.store(t0, x_start, der_start);
    store_row(t0);
    // A listed output time at t0 has its row already (the grid starts after t0).
    if (!options_.output_times.empty()) grid_.skip_through(t0);
    if (ending_) {
      finish(*ending_);
    } else {
      start_integration();
    }
  } catch (...) {
    end_by_exception();
  }
  return status_;
}

const SimulationStatus& SimulationRun::advance_to(double t) {
  refuse_after_take("advance_to");
  if (stage_ == Stage::kCreated) initialize();
  if (stage_ == Stage::kEnded || status_.outcome != Outcome::kRunning) return status_;
  if (!(t >= t_ && t <= options_.stop_s)) {
    throw std::invalid_argument(fmt::format(
        "Simulator::advance_to: t = {} is outside [{}, {}] (the time reached and stop_s)", t, t_,
        options_.stop_s));
  }
  try {
    run_until(t);
  } catch (...) {
    end_by_exception();
  }
  if (status_.outcome == Outcome::kRunning) status_.t = t_;  // the time reached, as time()
  return status_;
}

SimulationResult SimulationRun::take_result() {
  if (stage_ != Stage::kEnded) {
    stage_ = Stage::kEnded;
    recorder_.end();
  }
  taken_ = true;
  SimulationResult r;
  r.table = table_.take_table();
  r.events = std::move(events_);
  r.status = status_;
  r.statistics = statistics();
  // The run is over: the model no longer sees calls from it and may start another.
  in_use_.release();
  return r;
}

const Statistics& SimulationRun::statistics() const {
  if (integration_.started()) {
    const sundials::IdaCounters c = integration_.counters();
    Statistics& s = statistics_;
    s.steps = c.steps;
    s.residual_evaluations = c.residual_evaluations + c.dq_residual_evaluations;
    s.jacobian_residual_evaluations = c.dq_residual_evaluations;
    s.jacobian_evaluations = c.jacobian_evaluations;
    s.error_test_failures = c.error_test_failures;
    s.convergence_failures = c.convergence_failures;
    s.root_function_evaluations = c.root_evaluations;
    s.jacobian_colors = integration_.ida().jacobian_colors();
    s.ida_nre = c.residual_evaluations;
    s.ida_nre_ls = c.ls_residual_evaluations;
    s.ida_nni = c.nonlinear_iterations;
    s.ida_nncf = c.convergence_failures;
    s.ida_netf = c.error_test_failures;
    s.ida_nsetups = c.linear_setups;
    s.ida_nje = c.jacobian_evaluations;
    s.jacobian_time_s = integration_.jacobian_time_s();
  }
  if (stage_ == Stage::kRunning) statistics_.wall_time_s = stop_watch_.elapsed_s();
  if (stage_ == Stage::kEnded) statistics_.wall_time_s = wall_time_s_;
  return statistics_;
}

void SimulationRun::start_integration() {
  integration_.renew(*structure_, *reinit_);
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
