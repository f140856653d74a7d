#include "simulator/run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <limits>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "hdae/errors.hpp"
#include "hdae/simulator.hpp"

namespace hdae::detail {
namespace {

std::vector<ColumnInfo> make_columns(const ModelStructure& s) {
  std::vector<ColumnInfo> columns;
  columns.reserve(2 * s.variables.size() + s.outputs.size());
  for (const VariableInfo& v : s.variables) columns.push_back({v.name, v.unit, ColumnKind::kState});
  for (const VariableInfo& v : s.variables) {
    columns.push_back({v.der_name.empty() ? fmt::format("der({})", v.name) : v.der_name, v.der_unit,
                       ColumnKind::kDerivative});
  }
  for (const OutputInfo& o : s.outputs) columns.push_back({o.name, o.unit, ColumnKind::kOutput});
  return columns;
}

detail::ChatteringSettings chattering_settings(const SimulationOptions& o) {
  return {.window = o.chattering_event_count,
          .min_relative_spacing = o.chattering_min_relative_spacing,
          .dense_window = o.chattering_dense_event_count,
          .dense_span_fraction = o.chattering_dense_span_fraction,
          .interval_s = o.stop_s - o.start_s};
}

std::vector<std::string> crossing_names(const ModelStructure& s) {
  std::vector<std::string> names;
  names.reserve(s.crossings.size());
  for (const CrossingInfo& c : s.crossings) names.push_back(c.name);
  return names;
}

}  // namespace

Run::Run(SimulationModel& model, const SimulationOptions& options)
    : model_(model),
      options_(options),
      structure_(model.structure()),
      n_(structure_.num_unknowns()),
      crossings_(structure_, options.crossing_hysteresis),
      chattering_(chattering_settings(options), crossing_names(structure_)),
      watch_stop_(options.cancel != nullptr || options.max_wall_time_s > 0.0) {
  row_kinds_.reserve(n_);
  for (const EquationInfo& e : structure_.equations) row_kinds_.push_back(e.kind);
  time_event_times_.assign(structure_.time_events.size(), std::numeric_limits<double>::quiet_NaN());
  time_events_fired_ = std::make_unique<bool[]>(structure_.time_events.size());
  x_.resize(n_);
  for (std::size_t i = 0; i < n_; ++i) x_[i] = structure_.variables[i].start;
  der_x_.assign(n_, 0.0);
  r_.assign(n_, 0.0);
  scratch_r_.assign(n_, 0.0);
  w_.assign(structure_.outputs.size(), 0.0);
  row_buffer_.assign(2 * n_ + w_.size(), 0.0);
  result_.table = ResultTable(make_columns(structure_));
  const bool use_klu = options.linear_solver == LinearSolverKind::kKlu ||
                       (options.linear_solver == LinearSolverKind::kAuto &&
                        !structure_.sparsity.empty() && n_ >= options.klu_min_unknowns);
  if (use_klu || !structure_.sparsity.empty()) pattern_ = make_pattern(structure_);
  if (!use_klu) pattern_.reset();
}

SimulationResult Run::execute() {
  wall_start_ = std::chrono::steady_clock::now();
  if (!options_.stream_csv_path.empty()) {
    stream_ = std::make_unique<CsvStreamWriter>(options_.stream_csv_path, result_.table.columns());
  }
  try {
    phase_ = Phase::kInitialization;
    phase_t_ = options_.start_s;
    model_.reset();
    if (event_iteration(options_.start_s, EventKind::kInitial)) {
      store_row(options_.start_s);
      integrate();
    } else {
      store_row(options_.start_s);
    }
  } catch (...) {
    // Options and declarations were validated before the run: whatever is thrown now,
    // including a ModelError from misuse of the event context, comes from model code.
    rethrow_as_callback_error();
  }
  finish_statistics();
  if (stream_) stream_->close();
  return std::move(result_);
}

void Run::finish_statistics() {
  if (ida_) {
    const sundials::IdaCounters c = ida_->counters();
    Statistics& s = result_.statistics;
    s.steps = c.steps;
    s.residual_evaluations = c.residual_evaluations + c.dq_residual_evaluations;
    s.jacobian_residual_evaluations = c.dq_residual_evaluations;
    s.jacobian_evaluations = c.jacobian_evaluations;
    s.error_test_failures = c.error_test_failures;
    s.convergence_failures = c.convergence_failures;
    s.root_function_evaluations = c.root_evaluations;
    s.jacobian_colors = ida_->jacobian_colors();
    s.jacobian_time_s = ida_->jacobian_time_s();
  }
  result_.statistics.wall_time_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start_).count();
}

void Run::integrate() {
  const double t0 = options_.start_s;
  const double stop = options_.stop_s;
  const double dt = options_.resolved_output_interval_s();
  sundials::IntegratorSetup setup;
  setup.n = n_;
  for (const CrossingInfo& c : structure_.crossings) {
    setup.root_directions.push_back(c.direction == CrossingDirection::kRising    ? 1
                                    : c.direction == CrossingDirection::kFalling ? -1
                                                                                 : 0);
  }
  setup.rel_tol = options_.rel_tol;
  for (const VariableInfo& v : structure_.variables) {
    setup.abs_tol.push_back(options_.abs_tol_factor * options_.rel_tol * v.nominal);
    setup.nominal.push_back(v.nominal);
  }
  setup.max_step_s = options_.max_step_s;
  setup.max_steps = options_.max_steps_per_interval;
  setup.pattern = pattern_ ? &*pattern_ : nullptr;
  setup.analytic_jacobian = model_.provides_jacobian();
  setup.log = [this](LogLevel level, std::string_view message) {
    log(level, std::string(message));
  };
  ida_ = std::make_unique<sundials::IdaIntegrator>(*this, std::move(setup));
  restart_integrator(t0);

  // Output points are t0 + k dt (not accumulated, so no drift), the last one is stop.
  std::size_t k = 1;
  auto output_time = [&](std::size_t i) {
    return std::min(t0 + static_cast<double>(i) * dt, stop);
  };
  while (!finished_) {
    // The schedule changes only at events, so its next entry holds for this whole advance.
    const double t_next_event = next_time_event();
    const double t_event = std::min(t_next_event, stop);
    const double t_out = output_time(k);
    phase_ = Phase::kIntegration;
    advancing_from_ = ida_->t();
    const sundials::AdvanceResult res = ida_->advance(std::min(t_out, t_event), t_event);
    advancing_from_.reset();
    const double t = ida_->t();
    phase_t_ = t;
    if (res == sundials::AdvanceResult::kFailure || stop_requested()) {
      std::copy(ida_->y().begin(), ida_->y().end(), x_.begin());
      std::copy(ida_->yp().begin(), ida_->yp().end(), der_x_.begin());
      if (stop_request_) {
        fail(*stop_request_, t, stop_message(t));
      } else {
        std::string message = fmt::format("IDA failed at t = {} with {} (last step size {:.3g} s)",
                                          t, ida_->last_flag_name(), ida_->last_step());
        const std::string non_finite = non_finite_report();
        if (!non_finite.empty()) message += "; " + non_finite;
        fail(Outcome::kSolverFailure, t, std::move(message));
      }
      store_row(t);
      return;
    }
    std::copy(ida_->y().begin(), ida_->y().end(), x_.begin());
    std::copy(ida_->yp().begin(), ida_->yp().end(), der_x_.begin());
    const bool is_root = res == sundials::AdvanceResult::kRoot;
    const bool at_output = same_time(t, t_out);
    const bool at_time_event = same_time(t, t_next_event);
    const bool at_stop = same_time(t, stop);
    if (!(is_root || at_output || at_time_event || at_stop)) continue;

    store_row(t);  // output point, and the left limit x^-(t_e) at an event
    if (at_output) ++k;
    // An event right on (or within round-off of) a grid point: that row served as the output.
    while (output_time(k) < stop && (output_time(k) <= t || same_time(output_time(k), t))) ++k;
    const bool due = collect_due_time_events(t);
    if (is_root) {
      const auto& info = ida_->root_info();
      for (std::size_t i = 0; i < info.size(); ++i) {
        if (info[i] != 0) crossings_.note_root(i, info[i]);
      }
    }
    if (is_root || due) {
      const EventKind kind = is_root ? EventKind::kState : EventKind::kTime;
      if (!event_iteration(t, kind)) {
        store_row(t);
        return;
      }
      store_row(t);  // right limit x^+(t_e)
      if (kind == EventKind::kState) {
        if (auto verdict = chattering_.add(t, ida_->root_info())) {
          fail(Outcome::kChattering, t, verdict->message);
          return;
        }
      }
      if (finished_) return;
      if (!at_stop) restart_integrator(t);
    }
    if (at_stop) {
      result_.status.t = t;
      finished_ = true;
    }
  }
}

void Run::restart_integrator(double t) {
  phase_ = Phase::kIntegration;
  phase_t_ = t;
  if (!algebraic_) algebraic_ = algebraic_flags(t);
  ida_->restart(t, x_, der_x_, *algebraic_);
  ++result_.statistics.restarts;
}

void Run::store_row(double t) {
  const Phase saved = phase_;
  phase_ = Phase::kOutput;
  phase_t_ = t;
  // The model is evaluated only for its outputs: x and der(x) are the row's other columns.
  if (!w_.empty()) evaluate(t, x_, der_x_, scratch_r_, w_, EvaluationPhase::kContinuous);
  std::copy(x_.begin(), x_.end(), row_buffer_.begin());
  std::copy(der_x_.begin(), der_x_.end(), row_buffer_.begin() + static_cast<std::ptrdiff_t>(n_));
  std::copy(w_.begin(), w_.end(), row_buffer_.begin() + static_cast<std::ptrdiff_t>(2 * n_));
  if (options_.row_storage == RowStorage::kInMemory) result_.table.append(t, row_buffer_);
  if (stream_) stream_->append(t, row_buffer_);
  phase_ = saved;
}

namespace {

/// True when every value is finite. A NaN or an infinity makes the sum of the values
/// non-finite, and four partial sums let the compiler keep them in vector registers (two
/// instructions per value, where a test per value costs a compare and a branch each). Only a
/// non-finite sum, which finite values of magnitude near 1e308 can also give, is checked value
/// by value.
bool all_finite(std::span<const double> values) {
  const double* v = values.data();
  const std::size_t n = values.size();
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    s0 += v[i];
    s1 += v[i + 1];
    s2 += v[i + 2];
    s3 += v[i + 3];
  }
  for (; i < n; ++i) s0 += v[i];
  if (std::isfinite((s0 + s1) + (s2 + s3))) return true;
  return std::all_of(values.begin(), values.end(), [](double x) { return std::isfinite(x); });
}

}  // namespace

int Run::residual(double t, std::span<const double> y, std::span<const double> yp,
                  std::span<double> r) {
  phase_t_ = t;
  if (stop_requested()) return -1;  // fatal for IDA; integrate() reports why
  evaluate(t, y, yp, r, {}, EvaluationPhase::kContinuous);
  // The crossing values come from the same evaluation; a non-finite one would reach IDA's
  // root finder at the next step, so it is treated like a non-finite residual.
  if (all_finite(r) && (crossings_.size() == 0 || all_finite(crossings_.z()))) return 0;
  // Recoverable: IDA retries with a smaller step. Remember where, for the failure message.
  note_non_finite(t, y, yp, r);
  return 1;
}

int Run::roots(double t, std::span<const double> y, std::span<const double> yp,
               std::span<double> g) {
  phase_t_ = t;
  evaluate(t, y, yp, scratch_r_, {}, EvaluationPhase::kContinuous);
  const auto z = crossings_.z();
  if (!all_finite(z)) {
    // IDA has no recoverable failure for root functions: the run ends with a solver failure
    // whose message names the crossings (integrate(), non_finite_report()).
    note_non_finite(t, y, yp, scratch_r_);
    return -1;
  }
  std::copy(z.begin(), z.end(), g.begin());
  return 0;
}

void Run::note_non_finite(double t, std::span<const double> y, std::span<const double> yp,
                          std::span<const double> r) {
  non_finite_t_ = t;
  non_finite_rows_.clear();
  non_finite_crossings_.clear();
  non_finite_vars_.clear();
  for (std::size_t i = 0; i < n_; ++i) {
    if (!std::isfinite(r[i])) non_finite_rows_.push_back(i);
    if (!std::isfinite(y[i]) || !std::isfinite(yp[i])) non_finite_vars_.push_back(i);
  }
  const auto z = crossings_.z();
  for (std::size_t k = 0; k < z.size(); ++k) {
    if (!std::isfinite(z[k])) non_finite_crossings_.push_back(k);
  }
}

void Run::jacobian(double t, double cj, std::span<const double> y, std::span<const double> yp,
                   JacobianEntries& entries) {
  phase_t_ = t;
  model_.jacobian(t, cj, y, yp, entries);
}

void Run::fail(Outcome outcome, double t, std::string message) {
  result_.status = SimulationStatus{outcome, t, std::move(message)};
  finished_ = true;
  log(LogLevel::kError,
      fmt::format("{} at t = {}: {}", to_string(outcome), t, result_.status.message));
}

bool Run::poll_stop(ClockRead clock) {
  if (stop_request_) return true;
  // In residual calls the clock is read every 64th call: a clock read costs far less than a
  // residual, but not nothing.
  const bool read_clock = clock == ClockRead::kNow || (++residual_calls_ & 63U) == 0U;
  if (options_.cancel != nullptr && options_.cancel->load(std::memory_order_relaxed)) {
    stop_request_ = Outcome::kInterrupted;
  } else if (options_.max_wall_time_s > 0.0 && read_clock &&
             std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start_).count() >
                 options_.max_wall_time_s) {
    stop_request_ = Outcome::kWallClockLimit;
  }
  return stop_request_.has_value();
}

std::string Run::non_finite_report() const {
  if (non_finite_rows_.empty() && non_finite_crossings_.empty()) return {};
  std::vector<std::string> parts;
  if (!non_finite_rows_.empty()) {
    std::vector<std::string> equations;
    for (const std::size_t i : non_finite_rows_) equations.push_back(structure_.equations[i].name);
    parts.push_back(fmt::format("equations {{{}}}", fmt::join(equations, ", ")));
  }
  if (!non_finite_crossings_.empty()) {
    std::vector<std::string> crossings;
    for (const std::size_t k : non_finite_crossings_) {
      crossings.push_back(fmt::format("'{}'", structure_.crossings[k].name));
    }
    parts.push_back(fmt::format("crossings {{{}}}", fmt::join(crossings, ", ")));
  }
  std::string report = fmt::format("last {} not finite at t = {}: {}",
                                   non_finite_rows_.empty() ? "crossing value" : "residual",
                                   non_finite_t_, fmt::join(parts, "; "));
  if (!non_finite_vars_.empty()) {
    std::vector<std::string> variables;
    for (const std::size_t i : non_finite_vars_) variables.push_back(structure_.variables[i].name);
    report += fmt::format("; not finite: variables {{{}}}", fmt::join(variables, ", "));
  }
  return report;
}

double Run::next_time_event() const {
  double t = std::numeric_limits<double>::infinity();
  for (const double s : time_event_times_) {
    if (!std::isnan(s)) t = std::min(t, s);
  }
  return t;
}

void Run::log(LogLevel level, const std::string& message) const {
  if (level > options_.log_level || options_.log_level == LogLevel::kOff) return;
  if (options_.log_sink) {
    options_.log_sink(level, message);
  } else {
    std::cerr << "hdae: " << message << '\n';
  }
}

}  // namespace hdae::detail

namespace hdae {

SimulationResult simulate(SimulationModel& model, const SimulationOptions& options) {
  options.validate();
  model.structure().validate();
  detail::Run run(model, options);
  return run.execute();
}

}  // namespace hdae
