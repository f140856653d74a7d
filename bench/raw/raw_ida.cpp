#include "raw/raw_ida.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include <ida/ida_ls.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include "sundials/compiled_dense_solver.hpp"
#include "sundials/compiled_vector_ops.hpp"

// IDA's own output interpolation (ida.c), exported by libsundials_ida 6.x but not declared in
// its installed headers; the engine uses it the same way (engine/src/sundials/handles.hpp).
// NOLINTNEXTLINE(readability-identifier-naming): SUNDIALS's name
extern "C" int IDAGetSolution(void* ida_mem, sunrealtype t, N_Vector yret, N_Vector ypret);

namespace hdae::bench::raw {
namespace {

/// The engine's "same instant" (engine/src/events/same_time.hpp).
bool same_time(double a, double b) {
  const double tol =
      1000.0 * std::numeric_limits<double>::epsilon() * std::max({std::abs(a), std::abs(b), 1.0});
  return std::abs(a - b) <= tol;
}

void check(int flag, const char* call) {
  if (flag < 0)
    throw std::runtime_error(std::string(call) + " failed with flag " + std::to_string(flag));
}

}  // namespace

RawIda::RawIda(RawSetup setup) : setup_(std::move(setup)) {
  check(SUNContext_Create(nullptr, &ctx_), "SUNContext_Create");
  const sunindextype n = setup_.n;
  y_ = N_VNew_Serial(n, ctx_);
  yp_ = N_VNew_Serial(n, ctx_);
  id_ = N_VNew_Serial(n, ctx_);
  abs_tol_ = N_VNew_Serial(n, ctx_);
  step_y_ = N_VNew_Serial(n, ctx_);
  step_yp_ = N_VNew_Serial(n, ctx_);
  if (y_ == nullptr || yp_ == nullptr || id_ == nullptr || abs_tol_ == nullptr ||
      step_y_ == nullptr || step_yp_ == nullptr) {
    throw std::runtime_error("N_VNew_Serial failed");
  }
  // The vector operations hdae's integrators use (compiled by hdae, as Debian's SUNDIALS is
  // built without optimisation): the comparison measures the engine around IDA, not them.
  for (N_Vector v : {y_, yp_, id_, abs_tol_, step_y_, step_yp_}) {
    hdae::sundials::use_compiled_operations(v);
  }
  std::copy(setup_.abs_tol.begin(), setup_.abs_tol.end(), N_VGetArrayPointer(abs_tol_));
  std::copy(setup_.id.begin(), setup_.id.end(), N_VGetArrayPointer(id_));
  if (setup_.colored != nullptr) {
    const auto nnz = static_cast<sunindextype>(setup_.colored->pattern().nnz());
    matrix_ = SUNSparseMatrix(n, n, nnz, CSC_MAT, ctx_);
    if (matrix_ != nullptr) setup_.colored->write_pattern(matrix_);
    solver_ = SUNLinSol_KLU(y_, matrix_, ctx_);
  } else {
    matrix_ = SUNDenseMatrix(n, n, ctx_);
    solver_ = SUNLinSol_Dense(y_, matrix_, ctx_);
    if (solver_ != nullptr) {  // and its dense LU, likewise
      hdae::sundials::use_compiled_operations(matrix_);
      hdae::sundials::use_compiled_operations(solver_);
    }
  }
  if (matrix_ == nullptr || solver_ == nullptr)
    throw std::runtime_error("linear solver set-up failed");
}

RawIda::~RawIda() {
  if (mem_ != nullptr) IDAFree(&mem_);
  if (solver_ != nullptr) SUNLinSolFree(solver_);
  if (matrix_ != nullptr) SUNMatDestroy(matrix_);
  N_VDestroy(step_yp_);
  N_VDestroy(step_y_);
  N_VDestroy(abs_tol_);
  N_VDestroy(id_);
  N_VDestroy(yp_);
  N_VDestroy(y_);
  SUNContext_Free(&ctx_);
}

void RawIda::init(double t0, const double* y0, const double* yp0) {
  const auto n = static_cast<std::size_t>(setup_.n);
  std::copy_n(y0, n, N_VGetArrayPointer(y_));
  std::copy_n(yp0, n, N_VGetArrayPointer(yp_));
  t_ = t0;
  mem_ = IDACreate(ctx_);
  if (mem_ == nullptr) throw std::runtime_error("IDACreate failed");
  check(IDAInit(mem_, setup_.residual, t0, y_, yp_), "IDAInit");
  check(IDASetUserData(mem_, setup_.user_data), "IDASetUserData");
  check(IDASVtolerances(mem_, setup_.rel_tol, abs_tol_), "IDASVtolerances");
  check(IDASetLinearSolver(mem_, solver_, matrix_), "IDASetLinearSolver");
  if (setup_.colored != nullptr) {
    setup_.colored->attach(mem_, ctx_, setup_.residual, setup_.user_data);
    check(IDASetJacFn(mem_, setup_.jacobian_fn), "IDASetJacFn");
  }
  check(IDASetMaxNumSteps(mem_, setup_.max_steps), "IDASetMaxNumSteps");
  if (setup_.roots != nullptr) {
    check(IDARootInit(mem_, static_cast<int>(setup_.root_directions.size()), setup_.roots),
          "IDARootInit");
    check(IDASetRootDirection(mem_, setup_.root_directions.data()), "IDASetRootDirection");
    check(IDASetNoInactiveRootWarn(mem_), "IDASetNoInactiveRootWarn");
  }
  const bool any_algebraic = std::find(setup_.id.begin(), setup_.id.end(), 0.0) != setup_.id.end();
  if (any_algebraic && setup_.suppress_algebraic) {
    check(IDASetId(mem_, id_), "IDASetId");
    check(IDASetSuppressAlg(mem_, SUNTRUE), "IDASetSuppressAlg");
  }
}

void RawIda::reinit(double t, const double* y, const double* yp) {
  const RawCounters c = segment_counters();
  harvested_ = c;
  const auto n = static_cast<std::size_t>(setup_.n);
  // The event step usually edits IDA's own vectors in place (y() and yp()).
  if (y != N_VGetArrayPointer(y_)) std::copy_n(y, n, N_VGetArrayPointer(y_));
  if (yp != N_VGetArrayPointer(yp_)) std::copy_n(yp, n, N_VGetArrayPointer(yp_));
  t_ = t;
  pending_flag_ = 0;
  check(IDAReInit(mem_, t, y_, yp_), "IDAReInit");
}

int RawIda::solve(double t_out, double t_stop) {
  IDASetStopTime(mem_, t_stop);
  for (;;) {
    if (pending_flag_ != 0) {
      // A root or the stop time within round-off of t_out is that output point's row.
      if (pending_t_ <= t_out || same_time(pending_t_, t_out)) {
        N_VScale(1.0, step_y_, y_);
        N_VScale(1.0, step_yp_, yp_);
        t_ = pending_t_;
        return std::exchange(pending_flag_, 0);
      }
      IDAGetSolution(mem_, t_out, y_, yp_);
      t_ = t_out;
      return IDA_SUCCESS;
    }
    double t_now = t_;
    IDAGetCurrentTime(mem_, &t_now);
    if (t_now >= t_out && t_now > t_) {
      IDAGetSolution(mem_, t_out, y_, yp_);
      t_ = t_out;
      return IDA_SUCCESS;
    }
    double t_reached = t_;
    const int flag = IDASolve(mem_, t_out, &t_reached, step_y_, step_yp_, IDA_ONE_STEP);
    if (flag < 0) {
      N_VScale(1.0, step_y_, y_);
      N_VScale(1.0, step_yp_, yp_);
      t_ = t_reached;
      return flag;
    }
    if (flag == IDA_ROOT_RETURN || flag == IDA_TSTOP_RETURN) {
      pending_flag_ = flag;
      pending_t_ = t_reached;
    }
  }
}

void RawIda::root_info(int* info) const { IDAGetRootInfo(mem_, info); }

RawCounters RawIda::segment_counters() const {
  RawCounters c = harvested_;
  long v = 0;
  IDAGetNumSteps(mem_, &v);
  c.steps += v;
  IDAGetNumResEvals(mem_, &v);
  c.residual_evaluations += v;
  IDAGetNumLinResEvals(mem_, &v);
  c.jacobian_residual_evaluations += v;
  IDAGetNumJacEvals(mem_, &v);
  c.jacobian_evaluations += v;
  IDAGetNumErrTestFails(mem_, &v);
  c.error_test_failures += v;
  IDAGetNumNonlinSolvConvFails(mem_, &v);
  c.convergence_failures += v;
  IDAGetNumGEvals(mem_, &v);
  c.root_evaluations += v;
  return c;
}

RawCounters RawIda::counters() const {
  RawCounters c = segment_counters();
  if (setup_.colored != nullptr)
    c.jacobian_residual_evaluations += setup_.colored->residual_evaluations();
  return c;
}

}  // namespace hdae::bench::raw
