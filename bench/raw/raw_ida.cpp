#include "raw/raw_ida.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include <ida/ida_ls.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

namespace hdae::bench::raw {
namespace {

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
  if (y_ == nullptr || yp_ == nullptr || id_ == nullptr || abs_tol_ == nullptr) {
    throw std::runtime_error("N_VNew_Serial failed");
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
  }
  if (matrix_ == nullptr || solver_ == nullptr)
    throw std::runtime_error("linear solver set-up failed");
}

RawIda::~RawIda() {
  if (mem_ != nullptr) IDAFree(&mem_);
  if (solver_ != nullptr) SUNLinSolFree(solver_);
  if (matrix_ != nullptr) SUNMatDestroy(matrix_);
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
  check(IDAReInit(mem_, t, y_, yp_), "IDAReInit");
}

int RawIda::solve(double t_out, double t_stop) {
  IDASetStopTime(mem_, t_stop);
  double t_reached = t_;
  const int flag = IDASolve(mem_, t_out, &t_reached, y_, yp_, IDA_NORMAL);
  if (flag >= 0) t_ = t_reached;
  return flag;
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
