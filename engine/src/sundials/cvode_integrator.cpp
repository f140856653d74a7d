// CVODE as an OdeIntegrator (ode_integrator.hpp): Adams-Moulton with fixed-point iteration,
// which needs no Jacobian and suits non-stiff problems, or BDF with Newton's method on a dense
// matrix that CVODE forms by its own difference quotients of f.
#include <cvode/cvode.h>
#include <cvode/cvode_ls.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

#include "sundials/compiled_dense_solver.hpp"
#include "sundials/ode_integrator.hpp"

namespace hdae::sundials {
namespace {

/// CVODE's highest Adams order: the non-stiff problems it is meant for are smooth, and the
/// order control lowers it where they are not.
constexpr int kAdamsMaxOrder = 12;

class CvodeIntegrator final : public OdeIntegrator {
 public:
  CvodeIntegrator(OdeProblem& problem, IntegratorSetup setup, bool bdf)
      : OdeIntegrator(problem, std::move(setup)), bdf_(bdf) {}

  [[nodiscard]] std::string last_flag_name() const override { return cvode_flag_name(last_flag()); }
  [[nodiscard]] double last_step() const override {
    double h = 0.0;
    if (cvode_) CVodeGetLastStep(cvode_.get(), &h);
    return h;
  }
  [[nodiscard]] int history_order() const override {
    int q = 0;
    if (cvode_) CVodeGetLastOrder(cvode_.get(), &q);
    return q;
  }

 private:
  void create(double t) override;
  void reinit(double t) override {
    check_cvode(CVodeReInit(cvode_.get(), t, y_vector()), "CVodeReInit");
  }
  void set_initial_step(double h) override {
    check_cvode(CVodeSetInitStep(cvode_.get(), h), "CVodeSetInitStep");
  }
  void set_stop_time(double t_stop) override {
    check_cvode(CVodeSetStopTime(cvode_.get(), t_stop), "CVodeSetStopTime");
  }
  int evolve(double t_out, double& t_reached) override {
    return CVode(cvode_.get(), t_out, y_vector(), &t_reached, CV_ONE_STEP);
  }
  void dky(double t, int k, N_Vector out) const override {
    check_cvode(CVodeGetDky(cvode_.get(), t, k, out), "CVodeGetDky");
  }
  void read_root_info(int* info) override {
    check_cvode(CVodeGetRootInfo(cvode_.get(), info), "CVodeGetRootInfo");
  }
  void read_error_weights(N_Vector out) const override {
    check_cvode(CVodeGetErrWeights(cvode_.get(), out), "CVodeGetErrWeights");
  }
  [[nodiscard]] IntegratorCounters library_counters() const override;
  [[nodiscard]] int root_flag() const override { return CV_ROOT_RETURN; }
  [[nodiscard]] int stop_flag() const override { return CV_TSTOP_RETURN; }

  bool bdf_;
  // Destroyed before the base's vectors and context, as SUNDIALS requires.
  Matrix matrix_;
  LinearSolver linear_solver_;
  NonlinearSolver fixed_point_;
  CvodeMemory cvode_;
};

void CvodeIntegrator::create(double t) {
  SUNContext ctx = context();
  cvode_.reset(CVodeCreate(bdf_ ? CV_BDF : CV_ADAMS, ctx));
  if (!cvode_) throw SundialsError("CVodeCreate failed");
  void* mem = cvode_.get();
  const IntegratorSetup& s = setup();
  check_cvode(CVodeSetErrHandlerFn(mem, &OdeIntegrator::error_trampoline, this),
              "CVodeSetErrHandlerFn");
  check_cvode(CVodeInit(mem, &OdeIntegrator::rhs_trampoline, t, y_vector()), "CVodeInit");
  check_cvode(CVodeSetUserData(mem, this), "CVodeSetUserData");
  check_cvode(CVodeSVtolerances(mem, s.rel_tol, abs_tol()), "CVodeSVtolerances");
  if (bdf_) {
    const auto n = static_cast<sunindextype>(s.n);
    matrix_.reset(SUNDenseMatrix(n, n, ctx));
    if (!matrix_) throw SundialsError("SUNDenseMatrix allocation failed");
    linear_solver_.reset(SUNLinSol_Dense(y_vector(), matrix_.get(), ctx));
    if (!linear_solver_) throw SundialsError("SUNLinSol_Dense failed");
    use_compiled_operations(matrix_.get());
    use_compiled_operations(linear_solver_.get());
    check_cvode(CVodeSetLinearSolver(mem, linear_solver_.get(), matrix_.get()),
                "CVodeSetLinearSolver");
    check_cvode(CVodeSetMaxOrd(mem, s.max_order), "CVodeSetMaxOrd");
  } else {
    fixed_point_.reset(SUNNonlinSol_FixedPoint(y_vector(), 0, ctx));
    if (!fixed_point_) throw SundialsError("SUNNonlinSol_FixedPoint failed");
    check_cvode(CVodeSetNonlinearSolver(mem, fixed_point_.get()), "CVodeSetNonlinearSolver");
    check_cvode(CVodeSetMaxOrd(mem, kAdamsMaxOrder), "CVodeSetMaxOrd");
  }
  check_cvode(CVodeSetMaxNumSteps(mem, s.max_steps), "CVodeSetMaxNumSteps");
  if (s.max_step_s > 0.0) check_cvode(CVodeSetMaxStep(mem, s.max_step_s), "CVodeSetMaxStep");
  check_cvode(CVodeRootInit(mem, root_count(), &OdeIntegrator::root_trampoline), "CVodeRootInit");
  if (root_count() > 0) {
    std::vector<int> directions = s.root_directions;
    check_cvode(CVodeSetRootDirection(mem, directions.data()), "CVodeSetRootDirection");
    check_cvode(CVodeSetNoInactiveRootWarn(mem), "CVodeSetNoInactiveRootWarn");
  }
}

IntegratorCounters CvodeIntegrator::library_counters() const {
  IntegratorCounters c;
  if (!cvode_) return c;
  void* mem = cvode_.get();
  long v = 0;
  CVodeGetNumSteps(mem, &v);
  c.steps = v;
  CVodeGetNumRhsEvals(mem, &v);
  c.residual_evaluations = v;
  CVodeGetNumErrTestFails(mem, &v);
  c.error_test_failures = v;
  CVodeGetNumNonlinSolvIters(mem, &v);
  c.nonlinear_iterations = v;
  CVodeGetNumNonlinSolvConvFails(mem, &v);
  c.convergence_failures = v;
  // Without root functions the library's root counter is never initialised.
  if (root_count() > 0) {
    v = 0;
    CVodeGetNumGEvals(mem, &v);
    c.root_evaluations = v;
  }
  if (bdf_) {
    CVodeGetNumLinRhsEvals(mem, &v);
    c.dq_residual_evaluations = v;
    c.ls_residual_evaluations = v;
    CVodeGetNumJacEvals(mem, &v);
    c.jacobian_evaluations = v;
    CVodeGetNumLinSolvSetups(mem, &v);
    c.linear_setups = v;
  }
  return c;
}

}  // namespace

std::unique_ptr<Integrator> make_cvode_integrator(OdeProblem& problem, IntegratorSetup setup,
                                                  bool bdf) {
  return std::make_unique<CvodeIntegrator>(problem, std::move(setup), bdf);
}

}  // namespace hdae::sundials
