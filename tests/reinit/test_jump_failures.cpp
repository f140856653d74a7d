// solve_jump when it cannot succeed: a singular jump matrix, a residual that is not finite,
// the iteration limit. Each outcome carries a message that names the equations involved.
#include <cmath>
#include <vector>

#include <doctest/doctest.h>

#include "linalg/rank_diagnosis.hpp"
#include "reinit/jump_solver.hpp"
#include "reinit_test_models.hpp"

namespace hdae::reinit {
namespace {

using testing::make_model;

TEST_CASE("a clutch constraint written twice makes the jump matrix singular with names") {
  // Shaft momentum as one f_d row and the lock written twice instead of a torque equation.
  const testing::ClutchParameters p;
  const testing::TestModel model = make_model(
      {"w1", "w2", "tau_int"},
      {{"J1*der(w1) + J2*der(w2) = 0", RowKind::kDifferential},
       {"w2 - w1 = 0", RowKind::kConstraint},
       {"w1 - w2 = 0", RowKind::kConstraint}},
      [p](double, std::span<const double> x, std::span<const double> dx, std::span<double> r) {
        r[0] = p.J1 * dx[0] + p.J2 * dx[1];
        r[1] = x[1] - x[0];
        r[2] = x[0] - x[1];
      });
  const std::vector<double> x_minus{0.0, 10.0, 0.0};

  const JumpOutcome out = solve_jump(model.problem(), x_minus);
  CHECK(out.status == SolveStatus::kSingular);
  // y^T A = 0 forces y1 (J1 + J2) = 0 and y2 = y3: only the two lock rows are dependent.
  CHECK(out.message ==
        "the jump matrix [M_d; df_c/dx] is singular at t = 0: equations {w2 - w1 = 0, "
        "w1 - w2 = 0} are dependent; variables {tau_int} are not determined");
  CHECK(out.iterations == 0);
}

TEST_CASE("a residual that is not finite at x^- is reported with its equation") {
  const testing::TestModel model = make_model(
      {"x", "p"},
      {{"der(x) = -x", RowKind::kDifferential}, {"p = sqrt(x - 1)", RowKind::kConstraint}},
      [](double, std::span<const double> x, std::span<const double> dx, std::span<double> r) {
        r[0] = dx[0] + x[0];
        r[1] = x[1] - std::sqrt(x[0] - 1.0);  // NaN for x < 1
      });
  const std::vector<double> x_minus{0.0, 0.0};
  const JumpOutcome out = solve_jump(model.problem(), x_minus);
  CHECK(out.status == SolveStatus::kNotConverged);
  CHECK(out.message ==
        "jump at t = 0: the residual is not finite at x^- in equations {p = sqrt(x - 1)}");
}

TEST_CASE("a jump that needs more Newton iterations than allowed names the unmet equations") {
  // 2*x1*der(x1) + der(x2) = 0 and x1 = x2 from (2, 0): the first Newton step lands on
  // (1.6, 1.6) (Newton matrix [[4, 1], [1, -1]], residual (0, 2)), where the f_d row is
  // 1.6^2 - 4 + 1.6 = 0.16 and the f_c row holds exactly.
  const testing::TestModel model = make_model(
      {"x1", "x2"},
      {{"2*x1*der(x1) + der(x2) = 0", RowKind::kDifferential},
       {"x1 - x2 = 0", RowKind::kConstraint}},
      [](double, std::span<const double> x, std::span<const double> dx, std::span<double> r) {
        r[0] = 2.0 * x[0] * dx[0] + dx[1];
        r[1] = x[0] - x[1];
      });
  JumpProblem problem = model.problem();
  problem.max_iterations = 1;
  const JumpOutcome out = solve_jump(problem, std::vector<double>{2.0, 0.0});
  CHECK(out.status == SolveStatus::kNotConverged);
  CHECK(out.iterations == 1);
  CHECK(out.x_plus[0] == doctest::Approx(1.6).epsilon(1e-6));  // difference-quotient matrix
  CHECK(out.message ==
        "jump at t = 0: the jump equations did not converge (max_iterations = 1); largest "
        "residuals in equations {2*x1*der(x1) + der(x2) = 0}");
}

}  // namespace
}  // namespace hdae::reinit

namespace hdae::reinit {

TEST_CASE("a singular verdict names every equation and variable when none could be isolated") {
  // A null basis whose shares all drown (e.g. a subnormal scale) leaves both lists empty; the
  // message must still name suspects rather than print "equations {}".
  const testing::TestModel clutch = testing::make_clutch();
  const std::string message =
      linalg::describe_singular("J", 0.0, clutch.structure, linalg::RankDeficiency{});
  CHECK(message ==
        "J is singular at t = 0: equations {J1*der(w1) = tau_emf - tau, J2*der(w2) = tau, "
        "w2 - w1 = 0} are dependent; variables {w1, w2, tau_int} are not determined");
}

}  // namespace hdae::reinit
