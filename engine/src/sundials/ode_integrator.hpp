// Integrators for models that are explicit ODEs in their current mode, x' = f(t, x): CVODE's
// Adams-Moulton formulas (non-stiff, orders up to 12, solved by fixed-point iteration, no
// Jacobian), CVODE's BDF (stiff, Newton with a dense difference Jacobian of f), and ARKODE's
// explicit Runge-Kutta stepper with the Dormand-Prince 5(4) pair (ERKStep, non-stiff). All
// three are stepped as IdaIntegrator is: one internal step at a time with a stop time, root
// finding over whole steps, output points from the integrator's own interpolant.
#pragma once

#include <exception>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "sundials/handles.hpp"
#include "sundials/integrator.hpp"

namespace hdae::sundials {

/// f and the root functions of an explicit ODE; return 0 (ok), > 0 (recoverable: the
/// integrator retries with a smaller step) or < 0 (fatal). Exceptions are allowed.
class OdeProblem {
 public:
  virtual ~OdeProblem() = default;
  virtual int rhs(double t, std::span<const double> y, std::span<double> ydot) = 0;
  virtual int roots(double t, std::span<const double> y, std::span<double> g) = 0;
};

enum class OdeMethod { kAdams, kBdf, kErk };

/// The method's name in statistics and messages: "cvode-adams", "cvode-bdf", "arkode-erk".
[[nodiscard]] const char* ode_method_name(OdeMethod method);

/// The length of the stability interval [-S, 0] on the negative real axis of the explicit
/// Runge-Kutta pair that OdeMethod::kErk takes at rel_tol: a step h with h |lambda| > S
/// amplifies the mode of an eigenvalue lambda of df/dx.
[[nodiscard]] double erk_stability_boundary(double rel_tol);

/// The integrator of method over problem (setup.pattern is ignored: CVODE's BDF takes a dense
/// Newton matrix).
[[nodiscard]] std::unique_ptr<Integrator> make_ode_integrator(OdeMethod method, OdeProblem& problem,
                                                              IntegratorSetup setup);

/// What CVODE and ARKODE have in common as an Integrator: the vectors, where the integrator
/// stands, the roots, and the callbacks into the problem. The derived classes call the C
/// library.
class OdeIntegrator : public Integrator {
 public:
  OdeIntegrator(OdeProblem& problem, IntegratorSetup setup);

  void restart(double t, std::span<const double> y, std::span<const double> yp,
               const std::vector<bool>& is_algebraic, double initial_step,
               bool quick_climb) override;
  /// No matrix follows the model's pattern (BDF's is dense): nothing to change.
  void change_pattern(const sparsity::SparsityPattern& /*pattern*/) override {}
  StepResult step(double t_out, double t_stop) override;
  void interpolate(double t, std::span<double> y, std::span<double> yp) const override;
  void move_root(double t, std::vector<int> root_info) override;

  [[nodiscard]] double t() const override { return t_; }
  [[nodiscard]] std::span<const double> y() const override { return view(y_.get()); }
  /// From the interpolant at t(), on the first call after a step: with ARKODE's Hermite
  /// interpolants of degree 4 and 5 that costs calls of f.
  [[nodiscard]] std::span<const double> yp() const override;
  [[nodiscard]] const std::vector<int>& root_info() const override { return root_info_; }
  [[nodiscard]] std::vector<double> error_weights() const override;
  [[nodiscard]] IntegratorCounters counters() const override;

 protected:
  /// Creates the library's memory at (t, y_) on the first restart.
  virtual void create(double t) = 0;
  /// Re-initialises it at (t, y_) on later restarts (the counters are harvested first).
  virtual void reinit(double t) = 0;
  virtual void set_initial_step(double h) = 0;
  virtual void set_stop_time(double t_stop) = 0;
  /// One step in one-step mode; returns the library's flag, t_reached set.
  virtual int evolve(double t_out, double& t_reached) = 0;
  /// The k-th derivative of the interpolant at t into out.
  virtual void dky(double t, int k, N_Vector out) const = 0;
  virtual void read_root_info(int* info) = 0;
  virtual void read_error_weights(N_Vector out) const = 0;
  /// The library's counters since its last (re)initialisation.
  [[nodiscard]] virtual IntegratorCounters library_counters() const = 0;
  /// The library's flags for a root and for the stop time.
  [[nodiscard]] virtual int root_flag() const = 0;
  [[nodiscard]] virtual int stop_flag() const = 0;

  static int rhs_trampoline(sunrealtype t, N_Vector y, N_Vector ydot, void* self);
  static int root_trampoline(sunrealtype t, N_Vector y, sunrealtype* g, void* self);
  static void error_trampoline(int code, const char* module, const char* function, char* msg,
                               void* self);

  [[nodiscard]] const IntegratorSetup& setup() const { return setup_; }
  [[nodiscard]] N_Vector y_vector() const { return y_.get(); }
  [[nodiscard]] N_Vector abs_tol() const { return abs_tol_.get(); }
  [[nodiscard]] SUNContext context() const { return context_.get(); }
  [[nodiscard]] int last_flag() const { return last_flag_; }
  [[nodiscard]] int root_count() const { return static_cast<int>(root_info_.size()); }

 private:
  OdeProblem& problem_;
  IntegratorSetup setup_;
  VectorKind kind_;
  Context context_;
  Vector y_;
  Vector yp_;
  Vector abs_tol_;
  Vector work_;
  bool created_ = false;
  mutable bool yp_current_ = false;
  double t_ = 0.0;
  int last_flag_ = 0;
  std::vector<int> root_info_;
  IntegratorCounters harvested_;
  std::exception_ptr pending_;
};

}  // namespace hdae::sundials
