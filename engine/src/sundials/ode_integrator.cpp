#include "sundials/ode_integrator.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

namespace hdae::sundials {
namespace {

OdeIntegrator* self_of(void* user_data) { return static_cast<OdeIntegrator*>(user_data); }

}  // namespace

OdeIntegrator::OdeIntegrator(OdeProblem& problem, IntegratorSetup setup)
    : problem_(problem),
      setup_(std::move(setup)),
      kind_(vector_kind(setup_.threads)),
      context_(make_context()) {
  const std::size_t n = setup_.n;
  y_ = make_vector(n, context_.get(), setup_.threads);
  yp_ = make_vector(n, context_.get(), setup_.threads);
  abs_tol_ = make_vector(n, context_.get(), setup_.threads);
  work_ = make_vector(n, context_.get(), setup_.threads);
  std::copy(setup_.abs_tol.begin(), setup_.abs_tol.end(), view(abs_tol_.get()).begin());
  root_info_.assign(setup_.root_directions.size(), 0);
}

void OdeIntegrator::restart(double t, std::span<const double> y, std::span<const double> yp,
                            const std::vector<bool>& /*is_algebraic*/, double initial_step,
                            bool /*quick_climb*/) {
  // An explicit ODE has no algebraic unknowns; yp is f(t, y), which the library computes.
  std::copy(y.begin(), y.end(), view(y_.get()).begin());
  std::copy(yp.begin(), yp.end(), view(yp_.get()).begin());
  t_ = t;
  yp_current_ = true;
  if (!created_) {
    create(t);
    created_ = true;
  } else {
    harvested_ += library_counters();
    reinit(t);
  }
  set_initial_step(initial_step);
}

StepResult OdeIntegrator::step(double t_out, double t_stop) {
  set_stop_time(t_stop);
  double t_reached = t_;
  last_flag_ = evolve(t_out, t_reached);
  // On a failure too: the libraries return their last completed step then.
  t_ = t_reached;
  if (pending_) {
    std::exception_ptr e = std::exchange(pending_, nullptr);
    std::rethrow_exception(e);
  }
  // y_ is the solution at t_reached (the step's end, a root or the stop time); its slope
  // comes from the same interpolant when it is asked for (yp()).
  yp_current_ = false;
  if (last_flag_ < 0) return StepResult::kFailure;
  if (last_flag_ == root_flag()) {
    read_root_info(root_info_.data());
    return StepResult::kRoot;
  }
  if (last_flag_ == stop_flag()) return StepResult::kReachedStop;
  return StepResult::kStepped;
}

void OdeIntegrator::interpolate(double t, std::span<double> y, std::span<double> yp) const {
  dky(t, 0, work_.get());
  const auto w = view(work_.get());
  std::copy(w.begin(), w.end(), y.begin());
  dky(t, 1, work_.get());
  std::copy(w.begin(), w.end(), yp.begin());
}

std::span<const double> OdeIntegrator::yp() const {
  if (!yp_current_) {
    dky(t_, 1, yp_.get());
    yp_current_ = true;
  }
  return view(yp_.get());
}

void OdeIntegrator::move_root(double t, std::vector<int> root_info) {
  dky(t, 0, y_.get());
  t_ = t;
  yp_current_ = false;
  root_info_ = std::move(root_info);
}

std::vector<double> OdeIntegrator::error_weights() const {
  read_error_weights(work_.get());
  const auto w = view(work_.get());
  return {w.begin(), w.end()};
}

IntegratorCounters OdeIntegrator::counters() const {
  IntegratorCounters c = harvested_;
  if (created_) c += library_counters();
  return c;
}

int OdeIntegrator::rhs_trampoline(sunrealtype t, N_Vector y, N_Vector ydot, void* user_data) {
  OdeIntegrator* self = self_of(user_data);
  const std::size_t n = self->setup_.n;
  try {
    const VectorKind kind = self->kind_;
    return self->problem_.rhs(t, view(y, n, kind), view(ydot, n, kind));
  } catch (...) {
    self->pending_ = std::current_exception();
    return -1;
  }
}

int OdeIntegrator::root_trampoline(sunrealtype t, N_Vector y, sunrealtype* g, void* user_data) {
  OdeIntegrator* self = self_of(user_data);
  const std::size_t n = self->setup_.n;
  try {
    return self->problem_.roots(t, view(y, n, self->kind_), {g, self->root_info_.size()});
  } catch (...) {
    self->pending_ = std::current_exception();
    return -1;
  }
}

void OdeIntegrator::error_trampoline(int code, const char* module, const char* function, char* msg,
                                     void* user_data) {
  OdeIntegrator* self = self_of(user_data);
  // A callback that threw is reported by its exception (rethrown by step()).
  if (!self->setup_.messages || self->pending_) return;
  const MessageKind kind = code < 0 ? MessageKind::kError : MessageKind::kWarning;
  self->setup_.messages(kind, fmt::format("[{} {}] {}", module, function, msg));
}

std::unique_ptr<Integrator> make_cvode_integrator(OdeProblem& problem, IntegratorSetup setup,
                                                  bool bdf);
std::unique_ptr<Integrator> make_erk_integrator(OdeProblem& problem, IntegratorSetup setup);

std::unique_ptr<Integrator> make_ode_integrator(OdeMethod method, OdeProblem& problem,
                                                IntegratorSetup setup) {
  if (method == OdeMethod::kErk) return make_erk_integrator(problem, std::move(setup));
  return make_cvode_integrator(problem, std::move(setup), method == OdeMethod::kBdf);
}

const char* ode_method_name(OdeMethod method) {
  switch (method) {
    case OdeMethod::kAdams:
      return "cvode-adams";
    case OdeMethod::kBdf:
      return "cvode-bdf";
    case OdeMethod::kErk:
      return "arkode-erk";
  }
  return "unknown";
}

}  // namespace hdae::sundials
