// Counters of one run. IDA's counters are harvested before every
// IDAReInit (which zeroes them), so these are totals over the whole run.
#pragma once

#include <cstdint>
#include <string>

namespace hdae {

struct Statistics {
  /// The integrator of the last part of the run: "ida", "cvode-adams", "cvode-bdf" or
  /// "arkode-erk" (SimulationOptions::method).
  std::string integrator = "ida";
  /// Times a run under IntegrationMethod::kAuto moved to another integrator.
  std::int64_t method_switches = 0;
  std::int64_t steps = 0;                          ///< the integrator's steps
  std::int64_t residual_evaluations = 0;           ///< all F evaluations, incl. for Jacobians
  std::int64_t jacobian_residual_evaluations = 0;  ///< of which for Jacobians
  std::int64_t jacobian_evaluations = 0;
  std::int64_t error_test_failures = 0;
  std::int64_t convergence_failures = 0;  ///< nonlinear solver convergence failures
  std::int64_t root_function_evaluations = 0;
  std::int64_t time_events = 0;
  std::int64_t state_events = 0;
  std::int64_t step_events = 0;           ///< asked by the model after a completed step
  std::int64_t event_iterations = 0;      ///< passes over all events
  std::int64_t max_event_iterations = 0;  ///< most passes at one instant
  /// IDA started afresh: IDAReInit calls, and under RestartStep::kKeepOrder the events after
  /// which IDA went on with its history shifted to the right limit.
  std::int64_t restarts = 0;
  std::int64_t jump_solves = 0;
  std::int64_t jump_newton_iterations = 0;
  std::int64_t jacobian_colors = 0;  ///< colours of the sparse FD Jacobian (KLU)
  // IDA's own counters under their SUNDIALS names (IDAGetIntegratorStats and the linear
  // solver's getters), summed over restarts, for comparison with other IDA-based tools; under
  // CVODE and ARKODE their counters of the same meaning (nre: right-hand side calls).
  // hdae's totals above also count the coloured differences of the KLU path, which IDA does
  // not see (its Jacobian function is hdae's).
  std::int64_t ida_nre = 0;      ///< residual calls of the integrator (no Jacobian's calls)
  std::int64_t ida_nre_ls = 0;   ///< residual calls of IDA's difference-quotient Jacobian
  std::int64_t ida_nni = 0;      ///< nonlinear (Newton) iterations
  std::int64_t ida_nncf = 0;     ///< nonlinear convergence failures
  std::int64_t ida_netf = 0;     ///< local error test failures
  std::int64_t ida_nsetups = 0;  ///< linear solver setups (matrix factorisations)
  std::int64_t ida_nje = 0;      ///< Jacobian evaluations
  /// Wall time in hdae's Jacobian callback: the coloured differences (KLU) or the model's
  /// analytic Jacobian. 0 when IDA forms a dense Jacobian by its own differences.
  double jacobian_time_s = 0.0;
  double wall_time_s = 0.0;

  /// One line: steps, residuals, Jacobians, events, wall time.
  [[nodiscard]] std::string brief_report() const;
  /// One line per counter.
  [[nodiscard]] std::string full_report() const;
};

}  // namespace hdae
