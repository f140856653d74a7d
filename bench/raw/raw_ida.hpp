// RawIda: SUNDIALS IDA driven directly through its C API, the baseline hdae is measured
// against (docs/benchmarks.md). It does what a careful hand-written program does and no
// more: a context, serial N_Vectors, IDAInit, IDASVtolerances, IDASetId + IDASetSuppressAlg
// when an unknown is algebraic and the options suppress them, IDASetMaxNumSteps, root finding with
// directions, dense LU with IDA's own difference-quotient Jacobian or KLU with a coloured one,
// IDASolve in IDA_NORMAL mode with a stop time, and IDAReInit for restarts (IDA's counters are
// summed over restarts because IDAReInit zeroes them). It shares no code with the engine.
#pragma once

#include <memory>
#include <vector>

#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>

#include "raw/colored_jacobian.hpp"

namespace hdae::bench::raw {

/// IDA's counters (summed over restarts) plus the coloured-Jacobian residual calls.
struct RawCounters {
  long steps = 0;
  long residual_evaluations = 0;           ///< IDA's own (IDAGetNumResEvals)
  long jacobian_residual_evaluations = 0;  ///< IDA's DQ (IDAGetNumLinResEvals) or coloured FD
  long jacobian_evaluations = 0;
  long error_test_failures = 0;
  long convergence_failures = 0;
  long root_evaluations = 0;
};

struct RawSetup {
  sunindextype n = 0;
  IDAResFn residual = nullptr;
  void* user_data = nullptr;
  double rel_tol = 1e-6;
  std::vector<double> abs_tol;      ///< per component
  std::vector<double> id;           ///< 1 differential, 0 algebraic
  bool suppress_algebraic = false;  ///< exclude the algebraic ones from the error test
  long max_steps = 100000;
  IDARootFn roots = nullptr;
  std::vector<int> root_directions;
  /// Set for KLU (with jacobian_fn, e.g. colored_jacobian_fn<Problem>); null for dense.
  ColoredJacobian* colored = nullptr;
  IDALsJacFn jacobian_fn = nullptr;
};

class RawIda {
 public:
  explicit RawIda(RawSetup setup);
  RawIda(const RawIda&) = delete;
  RawIda& operator=(const RawIda&) = delete;
  ~RawIda();

  /// IDAInit etc. at (t0, y0, yp0); y0 and yp0 hold n values each.
  void init(double t0, const double* y0, const double* yp0);
  /// IDAReInit at (t, y, yp) after summing the counters of the last segment.
  void reinit(double t, const double* y, const double* yp);
  /// IDASetStopTime(t_stop), then IDA steps one at a time (IDA_ONE_STEP) until its step
  /// passes t_out, where y and y' are interpolated (IDA's IDAGetSolution), or a root or t_stop
  /// comes first; returns IDA's flag. This is how hdae drives IDA, so that both root finders
  /// check the same intervals (whole steps) and every counter can be compared.
  int solve(double t_out, double t_stop);
  /// IDAGetRootInfo into info (one int per root function).
  void root_info(int* info) const;

  [[nodiscard]] double t() const { return t_; }
  [[nodiscard]] double* y() { return N_VGetArrayPointer(y_); }
  [[nodiscard]] double* yp() { return N_VGetArrayPointer(yp_); }
  [[nodiscard]] RawCounters counters() const;

 private:
  [[nodiscard]] RawCounters segment_counters() const;

  RawSetup setup_;
  SUNContext ctx_ = nullptr;
  N_Vector y_ = nullptr;
  N_Vector yp_ = nullptr;
  N_Vector step_y_ = nullptr;  ///< IDA's own vectors in the one-step calls
  N_Vector step_yp_ = nullptr;
  int pending_flag_ = 0;  ///< a root or stop return beyond the last t_out, or 0
  double pending_t_ = 0.0;
  N_Vector id_ = nullptr;
  N_Vector abs_tol_ = nullptr;
  SUNMatrix matrix_ = nullptr;
  SUNLinearSolver solver_ = nullptr;
  void* mem_ = nullptr;
  double t_ = 0.0;
  RawCounters harvested_;
};

}  // namespace hdae::bench::raw
