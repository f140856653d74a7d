// IdaIntegrator: one IDA instance with its context, vectors, matrix and linear solver (dense
// LU or KLU), driven by the simulator one internal step at a time. It knows IDA only: an
// IdaProblem of residual, root and (optionally) Jacobian callbacks over plain vectors, a
// sparsity pattern (sparsity/) for the KLU path and its coloured difference Jacobian, and
// IDA's counters as totals across restarts (IDAReInit zeroes them, so they are harvested
// first). The pattern may change at an event (change_pattern) without a restart.
//
// Stepping is done in IDA_ONE_STEP mode and output points are interpolated from the last
// step (IDAGetSolution, IDA's own output interpolation, handles.hpp): IDA then takes exactly
// the steps it takes in IDA_NORMAL mode, but the root finder checks whole steps, whatever the
// caller's output times. That is what makes a run advanced in slices
// (hdae::Simulator::advance_to) identical to one advanced in one go.
//
// Exceptions thrown by the problem inside an IDA callback are caught in the C trampoline,
// the callback returns -1 (fatal), and step() rethrows the stored exception after IDA has
// returned: no exception ever crosses IDA's C frames.
#pragma once

#include <cstddef>
#include <exception>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sparsity/sparsity_pattern.hpp"
#include "sundials/handles.hpp"
#include "sundials/integrator.hpp"
#include "sundials/restart_climb.hpp"

namespace hdae::sundials {

/// Receives the entries of dF/dy + cj dF/dyp from an analytic Jacobian; entries accumulate.
class MatrixEntries {
 public:
  virtual ~MatrixEntries() = default;
  virtual void add(std::size_t row, std::size_t col, double value) = 0;
};

/// Callbacks IDA needs; return 0 (ok), > 0 (recoverable: IDA retries with a smaller step) or
/// < 0 (fatal). Exceptions are allowed (see the file comment).
class IdaProblem {
 public:
  virtual ~IdaProblem() = default;
  virtual int residual(double t, std::span<const double> y, std::span<const double> yp,
                       std::span<double> r) = 0;
  /// After a step: the model asks for a new Newton matrix (SimulationModel::newton_matrix_aged).
  [[nodiscard]] virtual bool newton_matrix_aged() { return false; }
  virtual int roots(double t, std::span<const double> y, std::span<const double> yp,
                    std::span<double> g) = 0;
  /// Analytic dF/dy + cj dF/dyp; only called when IntegratorSetup::analytic_jacobian. Returns
  /// 0, or > 0 for a failure IDA may recover from with a smaller step.
  virtual int jacobian(double t, double cj, std::span<const double> y, std::span<const double> yp,
                       MatrixEntries& entries) = 0;
};

class IdaIntegrator final : public Integrator {
 public:
  IdaIntegrator(IdaProblem& problem, IntegratorSetup setup);

  /// (Re)starts at (t, y, yp). is_algebraic marks unknowns excluded from the error test;
  /// initial_step is the first step size (IDASetInitStep), 0 for IDA's own estimate.
  /// quick_climb: after earlier steps, climb back quickly to free_step() (restart_climb.hpp).
  void restart(double t, std::span<const double> y, std::span<const double> yp,
               const std::vector<bool>& is_algebraic, double initial_step = 0.0,
               bool quick_climb = false) override;
  /// After an event at t inside the last step: IDA goes on at its order from the right limit
  /// (y, yp, and the second derivative ypp unless empty), its history shifted to it
  /// (history_shift.hpp), with first_step, instead of restarting at order 1 (and without the
  /// quick climb of a restart: IDA keeps its order). False, with IDA untouched, when there is
  /// no history to shift; the caller restarts then. The unknowns' kinds (restart's
  /// is_algebraic) must be unchanged.
  bool continue_from_history(double t, std::span<const double> y, std::span<const double> yp,
                             double first_step, std::span<const double> ypp = {}) override;
  /// The KLU path goes on over another pattern of the same size (the model's after
  /// EventContext::sparsity_changed, coloured), kept alive by the caller: the matrix takes its
  /// entries, KLU analyses it anew and the coloured differences use its colouring. IDA keeps
  /// its history (continue_from_history, or simply the next step) and sets up its linear
  /// solver before its next solve (history_shift.hpp, force_linear_setup). std::logic_error
  /// on the dense path.
  void change_pattern(const sparsity::SparsityPattern& pattern) override;
  /// Marks the unknowns excluded from the error test from now on (as restart's is_algebraic),
  /// for IDA going on with its history after an event that only reformulated the rows.
  void set_algebraic(const std::vector<bool>& is_algebraic) override;

  /// Takes one internal step without passing t_stop. t_out is the next time the caller wants
  /// a solution at; IDA reads it only for its first step after a restart (initial step size).
  /// On kRoot, root_info() tells which functions crossed. On kFailure, and when it rethrows an
  /// exception of a callback, t(), y() and yp() are those of the last step IDA completed.
  StepResult step(double t_out, double t_stop) override;
  /// A first step for a restart at t (inside the last step) from IDA's history: free_step(),
  /// bounded so that an order-1 step's local error h^2/2 ||y''||, with y'' of the solution so
  /// far at t, is at most error_fraction of the tolerance (IDA's weighted norm). 0 before the
  /// first step (nothing is known).
  [[nodiscard]] double step_from_history(double t, double error_fraction) const override;
  /// The order of IDA's last step (the degree of its history polynomial); 0 before the first.
  [[nodiscard]] int history_order() const override;
  /// y and yp at t inside the last step, [t() - last step, t()], from IDA's interpolating
  /// polynomial; throws when t lies outside.
  void interpolate(double t, std::span<double> y, std::span<double> yp) const override;
  /// After kRoot: the root becomes the earlier instant t inside the last step (the first at
  /// which a crossing's Boolean flips, where IDA reported a root function that had reached
  /// zero earlier and stayed there): t(), y(), yp() and root_info() are those of t, y and yp
  /// from IDA's interpolating polynomial. IDA's own state is left; the caller restarts at t.
  void move_root(double t, std::vector<int> root_info) override;

  [[nodiscard]] double t() const override { return at_.t; }
  [[nodiscard]] std::span<const double> y() const override {
    return view(y_.get(), setup_.n, kind_);
  }
  [[nodiscard]] std::span<const double> yp() const override {
    return view(yp_.get(), setup_.n, kind_);
  }
  [[nodiscard]] const std::vector<int>& root_info() const override { return roots_.info; }
  [[nodiscard]] std::string last_flag_name() const override;
  [[nodiscard]] double last_step() const override;
  /// |h| of the last step IDA chose by its error estimates alone, not cut short to end on a
  /// stop time: the step size the solution allowed before an event (0 before the first, and
  /// unless IntegratorSetup::restarts_from_history).
  [[nodiscard]] double free_step() const override { return at_.free_step; }
  /// IDA's error weights ewt_i = 1/(rtol |y_i| + atol_i), as it set them for its last step.
  [[nodiscard]] std::vector<double> error_weights() const override;
  /// Totals over all restarts so far, including the current segment.
  [[nodiscard]] IntegratorCounters counters() const override;
  [[nodiscard]] long jacobian_colors() const override;
  /// Wall time spent in the Jacobian callback over the whole run (all restarts).
  [[nodiscard]] double jacobian_time_s() const override { return tally_.jacobian_time_s; }

 private:
  static int residual_trampoline(sunrealtype t, N_Vector y, N_Vector yp, N_Vector r, void* self);
  static int root_trampoline(sunrealtype t, N_Vector y, N_Vector yp, sunrealtype* g, void* self);
  static int jacobian_trampoline(sunrealtype t, sunrealtype cj, N_Vector y, N_Vector yp, N_Vector r,
                                 SUNMatrix J, void* self, N_Vector tmp1, N_Vector tmp2,
                                 N_Vector tmp3);
  static void error_trampoline(int code, const char* module, const char* function, char* msg,
                               void* self);
  void create(double t);
  int fill_jacobian(double t, double cj, N_Vector y, N_Vector yp, N_Vector r, SUNMatrix J);
  int coloured_jacobian(double t, double cj, N_Vector y, N_Vector yp, N_Vector r, SUNMatrix J);
  void harvest();
  void write_pattern(SUNMatrix J) const;
  [[nodiscard]] IntegratorCounters ida_totals() const;

  IdaProblem& problem_;
  IntegratorSetup setup_;
  VectorKind kind_;
  // Destruction runs bottom-up: IDA memory and solvers go before the vectors and the context.
  Context context_;
  Vector y_;
  Vector yp_;
  Vector id_;
  Vector abs_tol_;
  /// Scratch vectors of the sizes of y, yp and r.
  struct WorkVectors {
    Vector y;
    Vector yp;
    Vector r;
  } work_;
  Matrix matrix_;
  LinearSolver linear_solver_;
  IdaMemory ida_;

  /// Where IDA stands.
  struct Position {
    bool initialized = false;
    double t = 0.0;
    int last_flag = 0;
    double free_step = 0.0;  ///< the last step IDA chose freely (free_step())
  } at_;
  struct Roots {
    std::vector<int> info;        ///< IDAGetRootInfo after kRoot
    std::vector<int> directions;  ///< IntegratorSetup::root_directions
  } roots_;
  RestartClimb climb_;
  bool suppress_algebraic_ = false;  ///< id_ masks the error test (IDASetSuppressAlg)
  /// What the run's integrations cost, kept across IDAReInit (which zeroes IDA's counters).
  struct Tally {
    IntegratorCounters harvested;
    long fd_residual_evaluations = 0;
    double jacobian_time_s = 0.0;
  } tally_;
  std::vector<double> increments_;
  std::exception_ptr pending_;
};

}  // namespace hdae::sundials
