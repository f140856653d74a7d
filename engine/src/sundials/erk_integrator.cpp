// ARKODE's explicit Runge-Kutta stepper as an OdeIntegrator (ode_integrator.hpp), with the
// Dormand-Prince 5(4) pair.
#include <cmath>
#include <memory>

#include <arkode/arkode_butcher_erk.h>
#include <arkode/arkode_erkstep.h>

#include "sundials/ode_integrator.hpp"

namespace hdae::sundials {
namespace {

/// Dormand-Prince 5(4), the pair of DOPRI5 and of SciPy's RK45, at every tolerance: rows between
/// the longer steps of a higher-order pair would need more than ARKODE's interpolants give
/// (Hermite polynomials of degree 5 at most, which cost extra calls of f per step).
ARKODE_ERKTableID table_for(double /*rel_tol*/) { return ARKODE_DORMAND_PRINCE_7_4_5; }

class ErkIntegrator final : public OdeIntegrator {
 public:
  ErkIntegrator(OdeProblem& problem, IntegratorSetup setup)
      : OdeIntegrator(problem, std::move(setup)) {}

  [[nodiscard]] std::string last_flag_name() const override {
    return arkode_flag_name(last_flag());
  }
  [[nodiscard]] double last_step() const override {
    double h = 0.0;
    if (erk_) ERKStepGetLastStep(erk_.get(), &h);
    return h;
  }

 private:
  void create(double t) override;
  void reinit(double t) override {
    check_arkode(ERKStepReInit(erk_.get(), &OdeIntegrator::rhs_trampoline, t, y_vector()),
                 "ERKStepReInit");
  }
  void set_initial_step(double h) override {
    check_arkode(ERKStepSetInitStep(erk_.get(), h), "ERKStepSetInitStep");
  }
  void set_stop_time(double t_stop) override {
    check_arkode(ERKStepSetStopTime(erk_.get(), t_stop), "ERKStepSetStopTime");
  }
  int evolve(double t_out, double& t_reached) override {
    return ERKStepEvolve(erk_.get(), t_out, y_vector(), &t_reached, ARK_ONE_STEP);
  }
  void dky(double t, int k, N_Vector out) const override {
    check_arkode(ERKStepGetDky(erk_.get(), t, k, out), "ERKStepGetDky");
  }
  void read_root_info(int* info) override {
    check_arkode(ERKStepGetRootInfo(erk_.get(), info), "ERKStepGetRootInfo");
  }
  void read_error_weights(N_Vector out) const override {
    check_arkode(ERKStepGetErrWeights(erk_.get(), out), "ERKStepGetErrWeights");
  }
  [[nodiscard]] IntegratorCounters library_counters() const override;
  [[nodiscard]] int root_flag() const override { return ARK_ROOT_RETURN; }
  [[nodiscard]] int stop_flag() const override { return ARK_TSTOP_RETURN; }

  ErkMemory erk_;  // destroyed before the base's vectors and context
};

void ErkIntegrator::create(double t) {
  erk_.reset(ERKStepCreate(&OdeIntegrator::rhs_trampoline, t, y_vector(), context()));
  if (!erk_) throw SundialsError("ERKStepCreate failed");
  void* mem = erk_.get();
  const IntegratorSetup& s = setup();
  check_arkode(ERKStepSetErrHandlerFn(mem, &OdeIntegrator::error_trampoline, this),
               "ERKStepSetErrHandlerFn");
  check_arkode(ERKStepSetUserData(mem, this), "ERKStepSetUserData");
  check_arkode(ERKStepSVtolerances(mem, s.rel_tol, abs_tol()), "ERKStepSVtolerances");
  check_arkode(ERKStepSetTableNum(mem, table_for(s.rel_tol)), "ERKStepSetTableNum");
  // The cubic Hermite interpolant uses the step's ends only and matches the fourth-order
  // dense output of a 5(4) pair; ARKODE's default of degree 5 costs extra calls of f per step.
  check_arkode(ERKStepSetInterpolantDegree(mem, 3), "ERKStepSetInterpolantDegree");
  check_arkode(ERKStepSetMaxNumSteps(mem, s.max_steps), "ERKStepSetMaxNumSteps");
  if (s.max_step_s > 0.0) check_arkode(ERKStepSetMaxStep(mem, s.max_step_s), "ERKStepSetMaxStep");
  check_arkode(ERKStepRootInit(mem, root_count(), &OdeIntegrator::root_trampoline),
               "ERKStepRootInit");
  if (root_count() > 0) {
    std::vector<int> directions = s.root_directions;
    check_arkode(ERKStepSetRootDirection(mem, directions.data()), "ERKStepSetRootDirection");
    check_arkode(ERKStepSetNoInactiveRootWarn(mem), "ERKStepSetNoInactiveRootWarn");
  }
}

IntegratorCounters ErkIntegrator::library_counters() const {
  IntegratorCounters c;
  if (!erk_) return c;
  void* mem = erk_.get();
  long v = 0;
  ERKStepGetNumSteps(mem, &v);
  c.steps = v;
  ERKStepGetNumRhsEvals(mem, &v);
  c.residual_evaluations = v;
  ERKStepGetNumErrTestFails(mem, &v);
  c.error_test_failures = v;
  // Without root functions the library's root counter is never initialised.
  if (root_count() > 0) {
    v = 0;
    ERKStepGetNumGEvals(mem, &v);
    c.root_evaluations = v;
  }
  return c;
}

/// R(z) of the pair's solution on y' = z y, y(0) = 1, h = 1: its stages Y_i = 1 + z sum_j
/// a_ij Y_j (A strictly lower triangular), R = 1 + z sum_i b_i Y_i.
double stability_function(const ARKodeButcherTableMem& table, double z) {
  std::vector<double> stage(static_cast<std::size_t>(table.stages));
  double r = 1.0;
  for (int i = 0; i < table.stages; ++i) {
    double sum = 0.0;
    for (int j = 0; j < i; ++j) sum += table.A[i][j] * stage[static_cast<std::size_t>(j)];
    stage[static_cast<std::size_t>(i)] = 1.0 + z * sum;
    r += z * table.b[i] * stage[static_cast<std::size_t>(i)];
  }
  return r;
}

}  // namespace

double erk_stability_boundary(double rel_tol) {
  const std::unique_ptr<ARKodeButcherTableMem, void (*)(ARKodeButcherTable)> table(
      ARKodeButcherTable_LoadERK(table_for(rel_tol)), &ARKodeButcherTable_Free);
  if (!table) throw SundialsError("ARKodeButcherTable_LoadERK failed");
  // The first x on a grid of 1/100 at which |R(-x)| exceeds 1: the stability interval
  // [-x, 0] on the negative real axis, to the grid's resolution.
  constexpr double kResolution = 0.01;
  constexpr double kFarthest = 20.0;
  double x = kResolution;
  while (x < kFarthest && std::abs(stability_function(*table, -x)) <= 1.0) x += kResolution;
  return x - kResolution;
}

std::unique_ptr<Integrator> make_erk_integrator(OdeProblem& problem, IntegratorSetup setup) {
  return std::make_unique<ErkIntegrator>(problem, std::move(setup));
}

}  // namespace hdae::sundials
