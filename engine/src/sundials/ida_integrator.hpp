// IdaIntegrator: one IDA instance with its context, vectors, matrix and linear solver (dense
// LU or KLU), driven by the simulator. It knows nothing of events or models; it integrates an
// IdaProblem, finds roots of its root functions, and keeps IDA's counters as totals across
// restarts (IDAReInit zeroes them, so they are harvested first).
//
// Exceptions thrown by the problem inside an IDA callback are caught in the C trampoline,
// the callback returns -1 (fatal), and advance() rethrows the stored exception after IDA has
// returned: no exception ever crosses IDA's C frames.
#pragma once

#include <exception>
#include <span>
#include <string>
#include <vector>

#include "hdae/model.hpp"
#include "hdae/options.hpp"
#include "model/sparsity_pattern.hpp"
#include "sundials/handles.hpp"

namespace hdae::sundials {

/// Callbacks IDA needs; return 0 (ok), > 0 (recoverable: IDA retries with a smaller step) or
/// < 0 (fatal). Exceptions are allowed (see the file comment).
class IdaProblem {
 public:
  virtual ~IdaProblem() = default;
  virtual int residual(double t, std::span<const double> y, std::span<const double> yp,
                       std::span<double> r) = 0;
  virtual int roots(double t, std::span<const double> y, std::span<const double> yp,
                    std::span<double> g) = 0;
  /// Analytic dF/dy + cj dF/dyp; only called when IntegratorSetup::analytic_jacobian.
  virtual void jacobian(double t, double cj, std::span<const double> y, std::span<const double> yp,
                        JacobianEntries& entries) = 0;
};

struct IntegratorSetup {
  std::size_t n = 0;
  std::vector<int> root_directions;  ///< +1 rising, -1 falling, 0 both, one per root function
  double rel_tol = 1e-6;
  std::vector<double> abs_tol;  ///< per component
  std::vector<double> nominal;  ///< per component, floor of difference increments
  double max_step_s = 0.0;      ///< 0: no limit
  long max_steps = 100000;
  const detail::SparsityPattern* pattern = nullptr;  ///< non-null selects KLU
  bool analytic_jacobian = false;
  LogSink log;  ///< receives IDA's error messages
};

/// IDA's counters, accumulated over restarts.
struct IdaCounters {
  long steps = 0;
  long residual_evaluations = 0;     ///< IDA's own (nre)
  long dq_residual_evaluations = 0;  ///< for difference-quotient Jacobians
  long jacobian_evaluations = 0;
  long error_test_failures = 0;
  long convergence_failures = 0;
  long root_evaluations = 0;
};

enum class AdvanceResult { kReachedOutput, kReachedStop, kRoot, kFailure };

class IdaIntegrator {
 public:
  IdaIntegrator(IdaProblem& problem, IntegratorSetup setup);
  IdaIntegrator(const IdaIntegrator&) = delete;
  IdaIntegrator& operator=(const IdaIntegrator&) = delete;
  ~IdaIntegrator() = default;

  /// (Re)starts at (t, y, yp). is_algebraic marks unknowns excluded from the error test.
  void restart(double t, std::span<const double> y, std::span<const double> yp,
               const std::vector<bool>& is_algebraic);

  /// Integrates towards t_out without passing t_stop. On kRoot, root_info() tells which. On
  /// kFailure, and when it rethrows an exception of a callback, t(), y() and yp() are those
  /// of the last step IDA completed.
  AdvanceResult advance(double t_out, double t_stop);

  [[nodiscard]] double t() const { return t_; }
  [[nodiscard]] std::span<const double> y() const { return view(y_.get()); }
  [[nodiscard]] std::span<const double> yp() const { return view(yp_.get()); }
  [[nodiscard]] const std::vector<int>& root_info() const { return root_info_; }
  [[nodiscard]] int last_flag() const { return last_flag_; }
  [[nodiscard]] std::string last_flag_name() const;
  [[nodiscard]] double last_step() const;
  /// Totals over all restarts so far, including the current segment.
  [[nodiscard]] IdaCounters counters() const;
  [[nodiscard]] long jacobian_colors() const;
  /// Wall time spent in the Jacobian callback over the whole run (all restarts).
  [[nodiscard]] double jacobian_time_s() const { return jacobian_time_s_; }

 private:
  static int residual_trampoline(sunrealtype t, N_Vector y, N_Vector yp, N_Vector r, void* self);
  static int root_trampoline(sunrealtype t, N_Vector y, N_Vector yp, sunrealtype* g, void* self);
  static int jacobian_trampoline(sunrealtype t, sunrealtype cj, N_Vector y, N_Vector yp, N_Vector r,
                                 SUNMatrix J, void* self, N_Vector tmp1, N_Vector tmp2,
                                 N_Vector tmp3);
  static void error_trampoline(int code, const char* module, const char* function, char* msg,
                               void* self);
  int fill_jacobian(double t, double cj, N_Vector y, N_Vector yp, N_Vector r, SUNMatrix J);
  void harvest();
  void write_pattern(SUNMatrix J) const;
  [[nodiscard]] IdaCounters ida_totals() const;

  IdaProblem& problem_;
  IntegratorSetup setup_;
  // Destruction runs bottom-up: IDA memory and solvers go before the vectors and the context.
  Context context_;
  Vector y_;
  Vector yp_;
  Vector id_;
  Vector abs_tol_;
  Vector work_y_;
  Vector work_yp_;
  Vector work_r_;
  Matrix matrix_;
  LinearSolver linear_solver_;
  IdaMemory ida_;

  bool initialized_ = false;
  double t_ = 0.0;
  int last_flag_ = 0;
  std::vector<int> root_info_;
  std::vector<int> root_directions_;
  IdaCounters harvested_;
  long fd_residual_evaluations_ = 0;
  double jacobian_time_s_ = 0.0;
  std::vector<std::vector<std::size_t>> columns_of_color_;
  std::vector<double> increments_;
  std::exception_ptr pending_;
};

}  // namespace hdae::sundials
