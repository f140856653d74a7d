// Statistics reports (statistics.hpp): a brief line for people after a run and a full list
// of counters, one "name: value" per line, named as the struct fields so they can be grepped.
#include <fmt/format.h>

#include "hdae/statistics.hpp"

namespace hdae {

std::string Statistics::brief_report() const {
  return fmt::format(
      "steps {}, residuals {} ({} for Jacobians), Jacobians {}, events {} state / {} time, "
      "{:.3f} s",
      steps, residual_evaluations, jacobian_residual_evaluations, jacobian_evaluations,
      state_events, time_events, wall_time_s);
}

std::string Statistics::full_report() const {
  std::string s;
  const auto line = [&s](std::string_view name, auto value) {
    s += fmt::format("{}: {}\n", name, value);
  };
  line("integrator", integrator);
  line("method_switches", method_switches);
  line("steps", steps);
  line("residual_evaluations", residual_evaluations);
  line("jacobian_residual_evaluations", jacobian_residual_evaluations);
  line("jacobian_evaluations", jacobian_evaluations);
  line("error_test_failures", error_test_failures);
  line("convergence_failures", convergence_failures);
  line("root_function_evaluations", root_function_evaluations);
  line("time_events", time_events);
  line("state_events", state_events);
  line("step_events", step_events);
  line("event_iterations", event_iterations);
  line("max_event_iterations", max_event_iterations);
  line("restarts", restarts);
  line("jump_solves", jump_solves);
  line("jump_newton_iterations", jump_newton_iterations);
  line("jacobian_colors", jacobian_colors);
  line("ida_nre", ida_nre);
  line("ida_nre_ls", ida_nre_ls);
  line("ida_nni", ida_nni);
  line("ida_nncf", ida_nncf);
  line("ida_netf", ida_netf);
  line("ida_nsetups", ida_nsetups);
  line("ida_nje", ida_nje);
  line("jacobian_time_s", jacobian_time_s);
  line("wall_time_s", wall_time_s);
  return s;
}

}  // namespace hdae
