// The integrator as the simulator drives it: one SUNDIALS integrator (IDA for DAEs, CVODE or
// ARKODE for explicit ODEs, ode_integrator.hpp) stepped one internal step at a time with root
// finding, restarted from a new state at events, and asked for its solution inside the last
// step. What only IDA can do (going on with its history after an event, a sparsity pattern
// that changes) has defaults here that say "not possible", so that the caller falls back to a
// restart.
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sparsity/sparsity_pattern.hpp"

namespace hdae::sundials {

/// Severity of a message of the integrator's error handler.
enum class MessageKind { kError, kWarning };
using MessageSink = std::function<void(MessageKind, std::string_view)>;

struct IntegratorSetup {
  std::size_t n = 0;
  std::vector<int> root_directions;  ///< +1 rising, -1 falling, 0 both, one per root function
  double rel_tol = 1e-6;
  std::vector<double> abs_tol;  ///< per component
  double max_step_s = 0.0;      ///< 0: no limit
  long max_steps = 100000;      ///< most steps between two calls that return to the caller
  int max_order = 5;            ///< highest BDF order (IDASetMaxOrd, CVodeSetMaxOrd)
  double nonlinear_convergence_coef = 0.33;  ///< IDASetNonlinConvCoef
  double step_growth_threshold = 2.0;        ///< IDASetEtaFixedStepBounds' upper bound (IDA only)
  const sparsity::SparsityPattern* pattern = nullptr;  ///< non-null selects KLU
  bool analytic_jacobian = false;
  /// <= 1: serial vectors; n > 1: OpenMP vectors with n threads (handles.hpp, make_vector).
  int threads = 1;
  /// Keep free_step() for restarts from history (RestartStep::kFromHistory, kKeepOrder); one
  /// call into IDA per step otherwise saved.
  bool restarts_from_history = false;
  MessageSink messages;  ///< receives the integrator's error and warning messages
};

/// The integrator's counters, accumulated over restarts (for CVODE and ARKODE the residual
/// evaluations are those of the right-hand side, each one residual call of the model).
struct IntegratorCounters {
  long steps = 0;
  long residual_evaluations = 0;     ///< IDA's own (nre)
  long dq_residual_evaluations = 0;  ///< for difference-quotient Jacobians (IDA's and ours)
  long ls_residual_evaluations = 0;  ///< of which by IDA's linear solver (nreLS)
  long jacobian_evaluations = 0;     ///< nje
  long linear_setups = 0;            ///< nsetups
  long nonlinear_iterations = 0;     ///< nni
  long error_test_failures = 0;      ///< netf
  long convergence_failures = 0;     ///< nncf
  long root_evaluations = 0;

  /// The sum over integrators of one run (IDA is created anew when the unknowns change).
  IntegratorCounters& operator+=(const IntegratorCounters& o) {
    steps += o.steps;
    residual_evaluations += o.residual_evaluations;
    dq_residual_evaluations += o.dq_residual_evaluations;
    ls_residual_evaluations += o.ls_residual_evaluations;
    jacobian_evaluations += o.jacobian_evaluations;
    linear_setups += o.linear_setups;
    nonlinear_iterations += o.nonlinear_iterations;
    error_test_failures += o.error_test_failures;
    convergence_failures += o.convergence_failures;
    root_evaluations += o.root_evaluations;
    return *this;
  }
};

/// How one call of step() ended.
enum class StepResult {
  kStepped,      ///< one internal step completed; t() is its end
  kRoot,         ///< a root function crossed zero within the step; t() is the root
  kReachedStop,  ///< the step ended on t_stop
  kFailure,      ///< IDA gave up; t() is the last completed step
};

/// One integrator over one set of unknowns; its problem's callbacks may throw (the exception
/// is rethrown by step() after the C library has returned).
class Integrator {
 public:
  Integrator() = default;
  Integrator(const Integrator&) = delete;
  Integrator& operator=(const Integrator&) = delete;
  virtual ~Integrator() = default;

  /// (Re)starts at (t, y, yp). is_algebraic marks unknowns excluded from the error test;
  /// initial_step is the first step size, 0 for the integrator's own estimate. quick_climb:
  /// climb back quickly to free_step() after earlier steps (IDA only).
  virtual void restart(double t, std::span<const double> y, std::span<const double> yp,
                       const std::vector<bool>& is_algebraic, double initial_step = 0.0,
                       bool quick_climb = false) = 0;
  /// Goes on from the right limit at t with the history of the steps before it; false (the
  /// integrator untouched) when it cannot, and the caller restarts.
  virtual bool continue_from_history(double /*t*/, std::span<const double> /*y*/,
                                     std::span<const double> /*yp*/, double /*first_step*/,
                                     std::span<const double> /*ypp*/ = {}) {
    return false;
  }
  /// The model's sparsity pattern changed at an event (same size).
  virtual void change_pattern(const sparsity::SparsityPattern& pattern) = 0;
  /// Marks the unknowns excluded from the error test from now on.
  virtual void set_algebraic(const std::vector<bool>& /*is_algebraic*/) {}

  /// Takes one internal step without passing t_stop; t_out is the next time the caller wants
  /// a solution at (read for the first step's size only).
  virtual StepResult step(double t_out, double t_stop) = 0;
  /// A first step for a restart at t from the history; 0 when nothing is known.
  [[nodiscard]] virtual double step_from_history(double /*t*/, double /*error_fraction*/) const {
    return 0.0;
  }
  /// The order of the last step; 0 when the method keeps no history of steps.
  [[nodiscard]] virtual int history_order() const { return 0; }
  /// y and yp at t inside the last step, from the integrator's interpolant.
  virtual void interpolate(double t, std::span<double> y, std::span<double> yp) const = 0;
  /// After kRoot: the root becomes the earlier instant t inside the last step.
  virtual void move_root(double t, std::vector<int> root_info) = 0;

  [[nodiscard]] virtual double t() const = 0;
  [[nodiscard]] virtual std::span<const double> y() const = 0;
  [[nodiscard]] virtual std::span<const double> yp() const = 0;
  [[nodiscard]] virtual const std::vector<int>& root_info() const = 0;
  [[nodiscard]] virtual std::string last_flag_name() const = 0;
  [[nodiscard]] virtual double last_step() const = 0;
  /// |h| of the last step chosen by the error estimates alone (0 when not kept).
  [[nodiscard]] virtual double free_step() const { return 0.0; }
  /// The error weights 1/(rtol |y_i| + atol_i) of the last step.
  [[nodiscard]] virtual std::vector<double> error_weights() const = 0;
  /// Totals over all restarts so far.
  [[nodiscard]] virtual IntegratorCounters counters() const = 0;
  [[nodiscard]] virtual long jacobian_colors() const { return 0; }
  [[nodiscard]] virtual double jacobian_time_s() const { return 0.0; }
};

}  // namespace hdae::sundials
