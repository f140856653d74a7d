// Texts for people: outcome and event-kind names, the statistics reports and the status line
// of summary().
#include <string>
#include <utility>

#include <doctest/doctest.h>

#include "hdae/result.hpp"
#include "hdae/statistics.hpp"
#include "hdae/status.hpp"

using namespace hdae;

TEST_CASE("every outcome and event kind has a readable name") {
  CHECK(to_string(Outcome::kReachedStopTime) == "reached stop time");
  CHECK(to_string(Outcome::kStoppedByModel) == "stopped by model");
  CHECK(to_string(Outcome::kSolverFailure) == "solver failure");
  CHECK(to_string(Outcome::kEventIterationLimit) == "event iteration limit");
  CHECK(to_string(Outcome::kChattering) == "chattering");
  CHECK(to_string(Outcome::kSingularJacobian) == "singular Jacobian");
  CHECK(to_string(Outcome::kJumpSolveFailure) == "jump solve failure");
  CHECK(to_string(Outcome::kResultLimit) == "result size limit");
  CHECK(to_string(EventKind::kInitial) == "initial");
  CHECK(to_string(EventKind::kTime) == "time");
  CHECK(to_string(EventKind::kState) == "state");
  CHECK(to_string(EventKind::kTerminal) == "terminal");
}

TEST_CASE("the brief statistics report is one line with the main counters") {
  Statistics s;
  s.steps = 123;
  s.residual_evaluations = 456;
  s.jacobian_residual_evaluations = 78;
  s.jacobian_evaluations = 9;
  s.state_events = 3;
  s.time_events = 1;
  s.wall_time_s = 0.0123;
  CHECK(s.brief_report() ==
        "steps 123, residuals 456 (78 for Jacobians), Jacobians 9, events 3 state / 1 time, "
        "0.012 s");
}

TEST_CASE("the full statistics report has one name: value line per counter") {
  Statistics s;
  s.steps = 1;
  s.residual_evaluations = 2;
  s.jacobian_residual_evaluations = 3;
  s.jacobian_evaluations = 4;
  s.error_test_failures = 5;
  s.convergence_failures = 6;
  s.root_function_evaluations = 7;
  s.time_events = 8;
  s.state_events = 9;
  s.step_events = 23;
  s.event_iterations = 10;
  s.max_event_iterations = 11;
  s.restarts = 12;
  s.jump_solves = 13;
  s.jump_newton_iterations = 14;
  s.jacobian_colors = 15;
  s.ida_nre = 16;
  s.ida_nre_ls = 17;
  s.ida_nni = 18;
  s.ida_nncf = 19;
  s.ida_netf = 20;
  s.ida_nsetups = 21;
  s.ida_nje = 22;
  s.jacobian_time_s = 0.125;
  s.wall_time_s = 0.25;
  s.integrator = "cvode-bdf";
  s.method_switches = 3;
  CHECK(s.full_report() ==
        "integrator: cvode-bdf\n"
        "method_switches: 3\n"
        "steps: 1\n"
        "residual_evaluations: 2\n"
        "jacobian_residual_evaluations: 3\n"
        "jacobian_evaluations: 4\n"
        "error_test_failures: 5\n"
        "convergence_failures: 6\n"
        "root_function_evaluations: 7\n"
        "time_events: 8\n"
        "state_events: 9\n"
        "step_events: 23\n"
        "event_iterations: 10\n"
        "max_event_iterations: 11\n"
        "restarts: 12\n"
        "jump_solves: 13\n"
        "jump_newton_iterations: 14\n"
        "jacobian_colors: 15\n"
        "ida_nre: 16\n"
        "ida_nre_ls: 17\n"
        "ida_nni: 18\n"
        "ida_nncf: 19\n"
        "ida_netf: 20\n"
        "ida_nsetups: 21\n"
        "ida_nje: 22\n"
        "jacobian_time_s: 0.125\n"
        "wall_time_s: 0.25\n");
}

namespace {

/// The status line of summary(): its first line.
std::string status_line_of(Outcome outcome, double t, std::string message) {
  SimulationResult result;
  result.status = SimulationStatus{outcome, t, std::move(message)};
  const std::string text = summary(result);
  return text.substr(0, text.find('\n'));
}

}  // namespace

TEST_CASE("the summary's status line gives outcome and time of a run that reached its end") {
  CHECK(status_line_of(Outcome::kReachedStopTime, 10.0, "") ==
        "status: reached stop time at t = 10");
}

TEST_CASE("the summary's status line adds a message that explains the outcome in parentheses") {
  CHECK(status_line_of(Outcome::kStoppedByModel, 2.5, "tank empty") ==
        "status: stopped by model at t = 2.5 (tank empty)");
  CHECK(
      status_line_of(Outcome::kSolverFailure, 1.0, "IDA failed at t = 1 with IDA_TOO_MUCH_WORK") ==
      "status: solver failure at t = 1 (IDA failed at t = 1 with IDA_TOO_MUCH_WORK)");
}

TEST_CASE("the summary says once that a run was interrupted or hit its wall-clock limit") {
  // The simulator's messages for these outcomes start with the outcome's name and give the
  // time themselves (docs/troubleshooting.md): they are the status line as they are.
  CHECK(status_line_of(Outcome::kInterrupted, 0.68, "interrupted at t = 0.68") ==
        "status: interrupted at t = 0.68");
  CHECK(status_line_of(Outcome::kWallClockLimit, 12.5,
                       "wall-clock limit of 60 s reached at t = 12.5") ==
        "status: wall-clock limit of 60 s reached at t = 12.5");
}
