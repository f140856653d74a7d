#include "sundials/ida_integrator.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <utility>

#include <fmt/format.h>
#include <ida/ida_ls.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include "sparsity/coloured_differences.hpp"
#include "sundials/compiled_dense_solver.hpp"
#include "sundials/history_shift.hpp"

namespace hdae::sundials {
namespace {

IdaIntegrator* self_of(void* user_data) { return static_cast<IdaIntegrator*>(user_data); }

/// Collects analytic Jacobian entries into a dense or CSC SUNMatrix.
class SunMatrixEntries final : public MatrixEntries {
 public:
  SunMatrixEntries(SUNMatrix m, const sparsity::SparsityPattern* pattern)
      : m_(m), pattern_(pattern) {}
  void add(std::size_t row, std::size_t col, double value) override {
    if (pattern_ == nullptr) {
      SM_ELEMENT_D(m_, static_cast<sunindextype>(row), static_cast<sunindextype>(col)) += value;
      return;
    }
    const std::size_t k = pattern_->find(row, col);
    if (k == pattern_->nnz()) {
      throw std::out_of_range(
          fmt::format("the model's Jacobian has an entry at (equation {}, variable {}) outside its "
                      "declared sparsity pattern",
                      row, col));
    }
    SM_DATA_S(m_)[k] += value;
  }

 private:
  SUNMatrix m_;
  const sparsity::SparsityPattern* pattern_;
};

}  // namespace

IdaIntegrator::IdaIntegrator(IdaProblem& problem, IntegratorSetup setup)
    : problem_(problem),
      setup_(std::move(setup)),
      kind_(vector_kind(setup_.threads)),
      context_(make_context()) {
  const std::size_t n = setup_.n;
  SUNContext ctx = context_.get();
  // IDA clones its own vectors (history, weights, Newton work) from y_, and the linear solvers
  // take y_ as their template: all of them are of y_'s kind.
  const int threads = setup_.threads;
  y_ = make_vector(n, ctx, threads);
  yp_ = make_vector(n, ctx, threads);
  id_ = make_vector(n, ctx, threads);
  abs_tol_ = make_vector(n, ctx, threads);
  work_.y = make_vector(n, ctx, threads);
  work_.yp = make_vector(n, ctx, threads);
  work_.r = make_vector(n, ctx, threads);
  std::copy(setup_.abs_tol.begin(), setup_.abs_tol.end(), view(abs_tol_.get()).begin());
  roots_.info.assign(setup_.root_directions.size(), 0);
  roots_.directions = setup_.root_directions;

  const auto sn = static_cast<sunindextype>(n);
  if (setup_.pattern != nullptr) {
    matrix_.reset(
        SUNSparseMatrix(sn, sn, static_cast<sunindextype>(setup_.pattern->nnz()), CSC_MAT, ctx));
    if (!matrix_) throw SundialsError("SUNSparseMatrix allocation failed");
    write_pattern(matrix_.get());
    linear_solver_.reset(SUNLinSol_KLU(y_.get(), matrix_.get(), ctx));
    increments_.resize(n);
  } else {
    matrix_.reset(SUNDenseMatrix(sn, sn, ctx));
    if (!matrix_) throw SundialsError("SUNDenseMatrix allocation failed");
    linear_solver_.reset(SUNLinSol_Dense(y_.get(), matrix_.get(), ctx));
    if (linear_solver_) {
      use_compiled_operations(matrix_.get());
      use_compiled_operations(linear_solver_.get());
    }
  }
  if (!linear_solver_) throw SundialsError("linear solver creation failed");
}

void IdaIntegrator::create(double t) {
  ida_.reset(IDACreate(context_.get()));
  if (!ida_) throw SundialsError("IDACreate failed");
  void* mem = ida_.get();
  check_ida(IDASetErrHandlerFn(mem, &IdaIntegrator::error_trampoline, this), "IDASetErrHandlerFn");
  check_ida(IDAInit(mem, &IdaIntegrator::residual_trampoline, t, y_.get(), yp_.get()), "IDAInit");
  check_ida(IDASetUserData(mem, this), "IDASetUserData");
  check_ida(IDASVtolerances(mem, setup_.rel_tol, abs_tol_.get()), "IDASVtolerances");
  check_ida(IDASetLinearSolver(mem, linear_solver_.get(), matrix_.get()), "IDASetLinearSolver");
  if (setup_.pattern != nullptr || setup_.analytic_jacobian) {
    check_ida(IDASetJacFn(mem, &IdaIntegrator::jacobian_trampoline), "IDASetJacFn");
  }
  check_ida(IDASetMaxNumSteps(mem, setup_.max_steps), "IDASetMaxNumSteps");
  check_ida(IDASetMaxOrd(mem, setup_.max_order), "IDASetMaxOrd");
  check_ida(IDASetNonlinConvCoef(mem, setup_.nonlinear_convergence_coef), "IDASetNonlinConvCoef");
  // A lower bound outside [0, 1] keeps IDA's own (the step shrinks below an estimate of 1).
  check_ida(IDASetEtaFixedStepBounds(mem, -1.0, setup_.step_growth_threshold),
            "IDASetEtaFixedStepBounds");
  if (setup_.max_step_s > 0.0) check_ida(IDASetMaxStep(mem, setup_.max_step_s), "IDASetMaxStep");
  const int nroots = static_cast<int>(roots_.directions.size());
  check_ida(IDARootInit(mem, nroots, &IdaIntegrator::root_trampoline), "IDARootInit");
  if (nroots > 0) {
    check_ida(IDASetRootDirection(mem, roots_.directions.data()), "IDASetRootDirection");
    // After an event the simulator hands IDA no root function that is zero at the restart
    // point (events/crossing_table.hpp); one that is identically zero is the model's
    // business, not worth a warning.
    check_ida(IDASetNoInactiveRootWarn(mem), "IDASetNoInactiveRootWarn");
  }
  at_.initialized = true;
}

StepResult IdaIntegrator::step(double t_out, double t_stop) {
  void* mem = ida_.get();
  check_ida(IDASetStopTime(mem, t_stop), "IDASetStopTime");
  double t_reached = at_.t;
  // In IDA_ONE_STEP mode y_ and yp_ are IDA's own solution at the end of the step (no
  // interpolation), except at a root or at t_stop, where IDA interpolates to that time.
  at_.last_flag = IDASolve(mem, t_out, &t_reached, y_.get(), yp_.get(), IDA_ONE_STEP);
  at_.t = t_reached;
  if (pending_) {
    std::exception_ptr e = std::exchange(pending_, nullptr);
    std::rethrow_exception(e);
  }
  if (at_.last_flag < 0) return StepResult::kFailure;
  climb_.after_step(mem);
  if (problem_.newton_matrix_aged()) force_linear_setup(mem);
  // IDA shortens the step that ends on t_stop (an event instant, an interval's end), and
  // grows the next one from that by at most its growth limit; the steps before tell what
  // the solution allows. A root's step is a free one: IDA found the root inside it.
  if (setup_.restarts_from_history && at_.last_flag != IDA_TSTOP_RETURN) {
    double h = 0.0;
    check_ida(IDAGetLastStep(mem, &h), "IDAGetLastStep");
    at_.free_step = std::abs(h);
  }
  if (at_.last_flag == IDA_ROOT_RETURN) {
    check_ida(IDAGetRootInfo(mem, roots_.info.data()), "IDAGetRootInfo");
    return StepResult::kRoot;
  }
  if (at_.last_flag == IDA_TSTOP_RETURN) return StepResult::kReachedStop;
  return StepResult::kStepped;
}

void IdaIntegrator::interpolate(double t, std::span<double> y, std::span<double> yp) const {
  check_ida(IDAGetSolution(ida_.get(), t, work_.y.get(), work_.yp.get()), "IDAGetSolution");
  // Every output row comes through here: the views with the known length and kind, inline.
  const auto wy = view(work_.y.get(), setup_.n, kind_);
  const auto wyp = view(work_.yp.get(), setup_.n, kind_);
  std::copy(wy.begin(), wy.end(), y.begin());
  std::copy(wyp.begin(), wyp.end(), yp.begin());
}

void IdaIntegrator::move_root(double t, std::vector<int> root_info) {
  check_ida(IDAGetSolution(ida_.get(), t, y_.get(), yp_.get()), "IDAGetSolution");
  at_.t = t;
  roots_.info = std::move(root_info);
}

std::string IdaIntegrator::last_flag_name() const { return ida_flag_name(at_.last_flag); }

double IdaIntegrator::last_step() const {
  double h = 0.0;
  if (ida_) IDAGetLastStep(ida_.get(), &h);
  return h;
}

std::vector<double> IdaIntegrator::error_weights() const {
  check_ida(IDAGetErrWeights(ida_.get(), work_.r.get()), "IDAGetErrWeights");
  const auto w = view(work_.r.get());
  return {w.begin(), w.end()};
}

void IdaIntegrator::harvest() { tally_.harvested = ida_totals(); }

IntegratorCounters IdaIntegrator::counters() const {
  IntegratorCounters c = ida_totals();
  // Our coloured difference quotients are not IDA's; they are counted across restarts here.
  c.dq_residual_evaluations += tally_.fd_residual_evaluations;
  return c;
}

IntegratorCounters IdaIntegrator::ida_totals() const {
  IntegratorCounters c = tally_.harvested;
  if (!ida_ || !at_.initialized) return c;
  // Since the last restart only (IDAReInit zeroed IDA's counters).
  void* mem = ida_.get();
  long v = 0;
  IDAGetNumSteps(mem, &v);
  c.steps += v;
  IDAGetNumResEvals(mem, &v);
  c.residual_evaluations += v;
  IDAGetNumLinResEvals(mem, &v);
  c.dq_residual_evaluations += v;
  c.ls_residual_evaluations += v;
  IDAGetNumJacEvals(mem, &v);
  c.jacobian_evaluations += v;
  IDAGetNumLinSolvSetups(mem, &v);
  c.linear_setups += v;
  IDAGetNumNonlinSolvIters(mem, &v);
  c.nonlinear_iterations += v;
  IDAGetNumErrTestFails(mem, &v);
  c.error_test_failures += v;
  IDAGetNumNonlinSolvConvFails(mem, &v);
  c.convergence_failures += v;
  IDAGetNumGEvals(mem, &v);
  c.root_evaluations += v;
  return c;
}

long IdaIntegrator::jacobian_colors() const {
  return setup_.pattern != nullptr ? static_cast<long>(setup_.pattern->num_colors) : 0;
}

int IdaIntegrator::residual_trampoline(sunrealtype t, N_Vector y, N_Vector yp, N_Vector r,
                                       void* user_data) {
  // The hot path of every run: no allocation, no std::function, the data pointers read
  // inline once per call (handles.hpp), then one virtual call into the problem.
  IdaIntegrator* self = self_of(user_data);
  const std::size_t n = self->setup_.n;
  try {
    const VectorKind kind = self->kind_;
    return self->problem_.residual(t, view(y, n, kind), view(yp, n, kind), view(r, n, kind));
  } catch (...) {
    self->pending_ = std::current_exception();
    return -1;
  }
}

int IdaIntegrator::root_trampoline(sunrealtype t, N_Vector y, N_Vector yp, sunrealtype* g,
                                   void* user_data) {
  IdaIntegrator* self = self_of(user_data);
  const std::size_t n = self->setup_.n;
  try {
    const VectorKind kind = self->kind_;
    return self->problem_.roots(t, view(y, n, kind), view(yp, n, kind),
                                {g, self->roots_.directions.size()});
  } catch (...) {
    self->pending_ = std::current_exception();
    return -1;
  }
}

int IdaIntegrator::jacobian_trampoline(sunrealtype t, sunrealtype cj, N_Vector y, N_Vector yp,
                                       N_Vector r, SUNMatrix J, void* user_data, N_Vector, N_Vector,
                                       N_Vector) {
  IdaIntegrator* self = self_of(user_data);
  // Two clock reads per Jacobian, which costs at least one residual call: negligible.
  const auto start = std::chrono::steady_clock::now();
  try {
    const int flag = self->fill_jacobian(t, cj, y, yp, r, J);
    self->tally_.jacobian_time_s +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return flag;
  } catch (...) {
    self->pending_ = std::current_exception();
    return -1;
  }
}

void IdaIntegrator::write_pattern(SUNMatrix J) const {
  // SUNMatZero on a sparse matrix clears the index arrays too, so the pattern (the current
  // one: change_pattern) is written before every fill.
  const sparsity::SparsityPattern& p = *setup_.pattern;
  sunindextype* col_ptr = SUNSparseMatrix_IndexPointers(J);
  sunindextype* row_idx = SUNSparseMatrix_IndexValues(J);
  for (std::size_t j = 0; j <= p.n; ++j) col_ptr[j] = static_cast<sunindextype>(p.col_start[j]);
  for (std::size_t k = 0; k < p.nnz(); ++k) row_idx[k] = static_cast<sunindextype>(p.row_index[k]);
  double* data = SUNSparseMatrix_Data(J);
  std::fill(data, data + p.nnz(), 0.0);
}

int IdaIntegrator::fill_jacobian(double t, double cj, N_Vector y, N_Vector yp, N_Vector r,
                                 SUNMatrix J) {
  if (setup_.pattern != nullptr) {
    write_pattern(J);
  } else {
    SUNMatZero(J);
  }
  if (!setup_.analytic_jacobian) return coloured_jacobian(t, cj, y, yp, r, J);
  SunMatrixEntries entries(J, setup_.pattern);
  return problem_.jacobian(t, cj, view(y, setup_.n, kind_), view(yp, setup_.n, kind_), entries);
}

int IdaIntegrator::coloured_jacobian(double t, double cj, N_Vector y, N_Vector yp, N_Vector r,
                                     SUNMatrix J) {
  // Coloured forward differences (sparsity/coloured_differences.hpp) with y_j += h_j and
  // yp_j += cj h_j, so one residual call gives dF/dy + cj dF/dyp for every column of a colour.
  // The increments are those of IDA's own dense difference quotient,
  // h_j = max(sqrt(u) max(|y_j|, |h yp_j|), 1/ewt_j) with the sign of h yp_j, so that KLU sees
  // the same Jacobian entries as the dense solver would.
  const std::size_t n = setup_.n;
  const auto y0 = view(y, n, kind_);
  const auto yp0 = view(yp, n, kind_);
  const auto r0 = view(r, n, kind_);
  auto yw = view(work_.y.get(), n, kind_);
  auto ypw = view(work_.yp.get(), n, kind_);
  auto rw = view(work_.r.get(), n, kind_);
  double h_step = 0.0;
  check_ida(IDAGetCurrentStep(ida_.get(), &h_step), "IDAGetCurrentStep");
  check_ida(IDAGetErrWeights(ida_.get(), work_.r.get()), "IDAGetErrWeights");
  const double srur = std::sqrt(std::numeric_limits<double>::epsilon());
  for (std::size_t j = 0; j < n; ++j) {
    const double hyp = h_step * yp0[j];
    double h = std::max(srur * std::max(std::abs(y0[j]), std::abs(hyp)), 1.0 / rw[j]);
    if (hyp < 0.0) h = -h;
    increments_[j] = (y0[j] + h) - y0[j];  // exactly representable difference
  }
  // The work vectors hold (y, yp) between colours: each colour perturbs its own columns and
  // puts them back afterwards, O(n) copying per Jacobian instead of O(n) per colour.
  std::copy(y0.begin(), y0.end(), yw.begin());
  std::copy(yp0.begin(), yp0.end(), ypw.begin());
  const std::span<double> values(SUNSparseMatrix_Data(J), setup_.pattern->nnz());
  return sparsity::coloured_differences(*setup_.pattern, increments_, r0, rw, values,
                                        [&](std::span<const sparsity::Index> columns) {
                                          for (const std::size_t j : columns) {
                                            yw[j] = y0[j] + increments_[j];
                                            ypw[j] = yp0[j] + cj * increments_[j];
                                          }
                                          const int flag = problem_.residual(t, yw, ypw, rw);
                                          ++tally_.fd_residual_evaluations;
                                          for (const std::size_t j : columns) {
                                            yw[j] = y0[j];
                                            ypw[j] = yp0[j];
                                          }
                                          return flag;
                                        });
}

void IdaIntegrator::error_trampoline(int code, const char* module, const char* function, char* msg,
                                     void* user_data) {
  IdaIntegrator* self = self_of(user_data);
  // A callback that threw makes IDA report a failure "in an unrecoverable manner"; the
  // exception itself is the news, rethrown by step(), so IDA's echo of it is dropped.
  if (!self->setup_.messages || self->pending_) return;
  const MessageKind kind = code < 0 ? MessageKind::kError : MessageKind::kWarning;
  self->setup_.messages(kind, fmt::format("[{} {}] {}", module, function, msg));
}

}  // namespace hdae::sundials
