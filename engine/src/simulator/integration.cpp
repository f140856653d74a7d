#include "simulator/integration.hpp"

#include <cmath>
#include <utility>

#include <fmt/format.h>

#include "sundials/ida_integrator.hpp"

namespace hdae::detail {
namespace {

/// RestartStep::kFromHistory: the share of IDA's error test that the first (order-1) step may
/// use by the second derivative before the event. The step then passes even when the event
/// made the second derivative up to 20 times larger (beyond, it fails and IDA shrinks it).
/// Larger shares cost no fewer steps on the pulsed chain of bench/restart_main.cpp and leave
/// the bouncing ball's impact times less accurate (docs/design.md, "Restarts").
constexpr double kRestartErrorFraction = 0.05;

/// RestartStep::kKeepOrder: the difference step of the right limit's second derivative, as a
/// fraction of the step h IDA goes on with. Its error, dt/2 times the third derivative, then
/// puts (dt/2) h^2/2 y^(3), 3/200 of the third-order term h^3/6 y^(3), into the history's
/// first step; smaller fractions would divide the derivatives' own error (about 1e-8
/// relative, from difference Jacobians) by a shorter dt, and cost no fewer steps on the pulsed
/// chain of bench/restart_main.cpp.
constexpr double kCurvatureStepFraction = 1e-2;

/// A dense LU of n unknowns costs n^3 / 3 flops, a call of f about 10 n: n^2 / 30 calls.
constexpr double kCallsPerFactorisationOverN2 = 30.0;

}  // namespace

Integration::Integration(ModelCalls& model, CrossingTable& crossings, StopWatch& stop,
                         const SimulationOptions& options, Log log)
    : model_(model),
      crossings_(crossings),
      stop_(stop),
      options_(options),
      log_(std::move(log)),
      bridge_(model, crossings, stop),
      ode_bridge_(bridge_) {}

void Integration::renew() { renew_due_ = true; }

void Integration::unknowns_changed(std::size_t n) {
  bridge_.resize(n);
  rows_changed();
  renew_due_ = true;
}

void Integration::pattern_changed(const reinit::Reinitializer& reinit) {
  // Not yet started (the pattern changed at t0), or to be made anew after other unknowns:
  // setup() reads the jump solve's pattern then.
  if (!integrator_ || renew_due_) return;
  integrator_->change_pattern(reinit.workspace().pattern()->pattern);
  form_checked_ = false;
}

sundials::IntegratorCounters Integration::counters() const {
  sundials::IntegratorCounters c = replaced_counters_;
  if (integrator_) c += integrator_->counters();
  return c;
}

double Integration::jacobian_time_s() const {
  return replaced_jacobian_time_s_ + (integrator_ ? integrator_->jacobian_time_s() : 0.0);
}

const char* Integration::method_name() const {
  return method_ ? sundials::ode_method_name(*method_) : "ida";
}

void Integration::restart(const RestartPoint& p) {
  structure_ = p.structure;
  reinit_ = p.reinit;
  choose_integrator(p);
  stiffness_.restarted();
  // The unknowns' kinds are cached until an event changes the rows.
  const bool same_kinds = algebraic_.has_value();
  if (!algebraic_) algebraic_ = algebraic_unknowns(p);
  const double initial_step = restart_step(p.t);
  PhaseScope scope(model_, ModelPhase::kIntegration);
  bridge_.restarting(p.t);
  // IDA's history of an unknown that changed kind says nothing about it: only with the same
  // kinds does IDA go on at its order (sundials/history_shift.hpp).
  if (options_.restart_step == RestartStep::kKeepOrder && same_kinds &&
      continue_at_order(p, initial_step)) {
    return;
  }
  // The quick climb goes with the steps from history: under kIdaEstimate it would cost the
  // margin that keeps bouncing-ball impacts within 1e-12 s (docs/design.md, "Restarts").
  const bool quick_climb = options_.restart_step != RestartStep::kIdaEstimate;
  integrator_->restart(p.t, p.x, p.der_x, *algebraic_, initial_step, quick_climb);
}

void Integration::choose_integrator(const RestartPoint& p) {
  if (options_.method == IntegrationMethod::kIda) {
    if (renew_due_) make_integrator(std::nullopt, p);
    return;
  }
  if (form_checked_ && !renew_due_) return;
  const std::optional<sundials::OdeMethod> method = method_for(p);
  form_checked_ = true;
  stiff_on_ida_ = false;
  if (renew_due_ || method != method_) make_integrator(method, p);
}

std::optional<sundials::OdeMethod> Integration::method_for(const RestartPoint& p) {
  PhaseScope scope(model_, ModelPhase::kIntegration);
  const linalg::ColouredPattern* coloured = p.reinit->workspace().pattern();
  std::string why;
  std::optional<ExplicitForm> form =
      find_explicit_form(model_, crossings_, p.t, p.x, p.der_x, p.row_kinds,
                         coloured != nullptr ? &coloured->pattern : nullptr, &why);
  if (!form) {
    if (options_.method == IntegrationMethod::kAuto) return std::nullopt;
    model_.fail(p.t, fmt::format("SimulationOptions::method {} integrates explicit ODEs only, and "
                                 "this mode is not one: {}; use method ida or auto",
                                 to_string(options_.method), why));
  }
  ode_bridge_.use(std::move(*form));
  switch (options_.method) {
    case IntegrationMethod::kBdf:
      return sundials::OdeMethod::kBdf;
    case IntegrationMethod::kAdams:
      return sundials::OdeMethod::kAdams;
    default:
      return sundials::OdeMethod::kErk;
  }
}

bool Integration::follow_stiffness() {
  const bool explicit_ode = method_.has_value() || stiff_on_ida_;
  if (options_.method != IntegrationMethod::kAuto || !explicit_ode) return false;
  // IDA stands in for CVODE's BDF on the sparse path (stiff_method()).
  const sundials::OdeMethod current = method_.value_or(sundials::OdeMethod::kBdf);
  const sundials::IntegratorCounters c = integrator_->counters();
  const auto n = static_cast<double>(ode_bridge_.size());
  const StiffnessCheck::Step step{
      .method = current,
      .t = integrator_->t(),
      .cost = static_cast<double>(c.residual_evaluations + c.dq_residual_evaluations) +
              static_cast<double>(c.linear_setups) * n * n / kCallsPerFactorisationOverN2,
      .rejections = c.error_test_failures};
  if (erk_boundary_ == 0.0) erk_boundary_ = sundials::erk_stability_boundary(options_.rel_tol);
  double rho = 0.0;
  const auto estimate = [&] {
    PhaseScope scope(model_, ModelPhase::kIntegration);
    rho = stiffness_.spectral_radius(ode_bridge_, step.t, integrator_->y(),
                                     integrator_->error_weights());
    return rho;
  };
  const std::optional<sundials::OdeMethod> next =
      stiffness_.after_step(step, erk_boundary_, estimate);
  if (!next || *next == current) return false;
  switch_to(*next, rho);
  return true;
}

void Integration::switch_to(sundials::OdeMethod next, double rho) {
  const double t = integrator_->t();
  const std::vector<double> y(integrator_->y().begin(), integrator_->y().end());
  const std::vector<double> yp(integrator_->yp().begin(), integrator_->yp().end());
  const std::optional<sundials::OdeMethod> method =
      next == sundials::OdeMethod::kBdf ? stiff_method() : next;
  const RestartPoint p{.t = t, .x = y, .der_x = yp, .structure = structure_, .reinit = reinit_};
  make_integrator(method, p);
  stiff_on_ida_ = !method.has_value();
  log_(LogLevel::kInfo,
       fmt::format("t = {}: the ODE {} here (|eigenvalue| {:g} 1/s): {} goes on", t,
                   next == sundials::OdeMethod::kBdf ? "is stiff" : "is not stiff", rho,
                   method_name()));
  integrator_->restart(t, y, yp, *algebraic_, 0.0, false);
  stiffness_.restarted();
}

std::optional<sundials::OdeMethod> Integration::stiff_method() const {
  // CVODE's BDF forms a dense Newton matrix; a model on the sparse path keeps KLU under IDA.
  if (reinit_ != nullptr && reinit_->workspace().pattern() != nullptr) return std::nullopt;
  return sundials::OdeMethod::kBdf;
}

void Integration::make_integrator(std::optional<sundials::OdeMethod> method,
                                  const RestartPoint& p) {
  if (integrator_) {
    replaced_counters_ += integrator_->counters();
    replaced_jacobian_time_s_ += integrator_->jacobian_time_s();
    if (!renew_due_) ++method_switches_;
  }
  // The old integrator goes first: it holds a bridge as its problem.
  integrator_.reset();
  sundials::IntegratorSetup s = setup(*p.structure, *p.reinit);
  if (method) {
    integrator_ = sundials::make_ode_integrator(*method, ode_bridge_, std::move(s));
  } else {
    integrator_ = std::make_unique<sundials::IdaIntegrator>(bridge_, std::move(s));
  }
  method_ = method;
  renew_due_ = false;
}

bool Integration::continue_smoothly(const RestartPoint& p) {
  // No jump and no new unknowns: P, IDA's polynomial through its last steps, is the solution
  // on both sides of t, so shifting the history to the right limit x(t), der_x(t) (its own
  // values there) changes nothing but where IDA stands, and IDA goes on with the step it
  // took last.
  algebraic_ = algebraic_unknowns(p);
  PhaseScope scope(model_, ModelPhase::kIntegration);
  bridge_.restarting(p.t);
  // The step that found the root was a free one (IdaIntegrator::step).
  if (!integrator_->continue_from_history(p.t, p.x, p.der_x, integrator_->last_step()))
    return false;
  integrator_->set_algebraic(*algebraic_);
  return true;
}

bool Integration::continue_at_order(const RestartPoint& p, double bounded_step) {
  // With the right limit's curvature the shifted history is right to second order, so IDA
  // may go on with the last step it chose freely. Not after a crossing flipped, though: it
  // stands at zero, and IDA sees a root function's sign only at step ends, so a step as long
  // as the one before could carry it away and back unseen (a ball whose next flight is
  // shorter than the step that found the impact). Then, and without the curvature (an
  // order-1 history, derivatives that cannot be differentiated here), the first step is
  // bounded as under kFromHistory.
  const double h = integrator_->free_step();
  std::optional<std::vector<double>> curvature;
  if (integrator_->history_order() >= 2 && h > 0.0) {
    curvature =
        p.reinit->second_derivatives(p.t, p.row_kinds, p.x, p.der_x, kCurvatureStepFraction * h);
  }
  if (!curvature) return integrator_->continue_from_history(p.t, p.x, p.der_x, bounded_step);
  return integrator_->continue_from_history(p.t, p.x, p.der_x,
                                            p.crossing_flipped ? bounded_step : h, *curvature);
}

double Integration::restart_step(double t) const {
  // kIdaEstimate: IDA's own first step, tiny and far more accurate than the tolerance asks;
  // that is what keeps bouncing-ball impact times at rel_tol 1e-10 within 1e-12 s of the
  // analytic ones (tests/events/test_state_events.cpp). kFromHistory and kKeepOrder trade
  // that margin for steps (docs/design.md, "Restarts").
  if (options_.restart_step != RestartStep::kIdaEstimate) {
    if (const double h = integrator_->step_from_history(t, kRestartErrorFraction); h > 0.0)
      return h;
  }
  return options_.initial_step_s;
}

std::vector<bool> Integration::algebraic_unknowns(const RestartPoint& p) {
  std::vector<bool> algebraic = p.reinit->algebraic_unknowns(p.t, p.row_kinds, p.x);
  for (std::size_t j = 0; j < algebraic.size(); ++j) {
    const ErrorControl control = p.structure->variables.declared(j).error_control;
    if (control == ErrorControl::kExcluded) algebraic[j] = true;
    if (!options_.suppress_algebraic && control == ErrorControl::kIncluded) algebraic[j] = false;
  }
  return algebraic;
}

sundials::IntegratorSetup Integration::setup(const ModelStructure& s,
                                             const reinit::Reinitializer& reinit) const {
  sundials::IntegratorSetup setup;
  setup.n = s.num_unknowns();
  for (const CrossingInfo& c : s.crossings) {
    setup.root_directions.push_back(c.direction == CrossingDirection::kRising    ? 1
                                    : c.direction == CrossingDirection::kFalling ? -1
                                                                                 : 0);
  }
  setup.rel_tol = options_.rel_tol;
  setup.abs_tol.resize(setup.n);
  s.variables.for_each_declared([&](std::size_t j, const VariableInfo& v) {
    setup.abs_tol[j] = v.abs_tol.value_or(options_.abs_tol_factor * options_.rel_tol * v.nominal);
  });
  setup.max_step_s = options_.max_step_s;
  setup.max_steps = options_.max_steps_per_interval;
  setup.max_order = options_.max_order;
  setup.restarts_from_history = options_.restart_step != RestartStep::kIdaEstimate;
  setup.nonlinear_convergence_coef = options_.nonlinear_convergence_coef;
  setup.step_growth_threshold = options_.step_growth_threshold;
  const linalg::ColouredPattern* coloured = reinit.workspace().pattern();
  setup.pattern = coloured != nullptr ? &coloured->pattern : nullptr;
  setup.analytic_jacobian = model_.model().provides_jacobian();
  setup.threads = options_.threads;
  setup.messages = [this](sundials::MessageKind kind, std::string_view message) {
    // A stop request makes the residual fail on purpose; IDA's report of that is no news.
    if (stop_.request()) return;
    log_(kind == sundials::MessageKind::kError ? LogLevel::kError : LogLevel::kWarning, message);
  };
  return setup;
}

}  // namespace hdae::detail
