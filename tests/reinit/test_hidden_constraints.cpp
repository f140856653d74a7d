// Hidden constraints of a singular mass matrix (reinit/hidden_constraints.hpp; docs/design.md,
// "General rows and singular mass matrices"): found, enforced by the jump solve and
// differentiated for the consistent derivatives.
#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include <doctest/doctest.h>

#include "reinit/consistent_derivatives.hpp"
#include "reinit/hidden_constraints.hpp"
#include "reinit/jump_solver.hpp"
#include "reinit_test_models.hpp"

namespace hdae::reinit {
namespace {

/// Rows 0 and 1 hold the same derivatives (-2 times): M = [1 -1 0; -2 2 0; 0 0 1], rank 2.
/// Row 0 + row 1 / 2 = x + (y - 1)/2 holds no derivative: the hidden constraint
/// x + y/2 = 1/2.
testing::TestModel make_pair() {
  return testing::make_model(
      {"x", "y", "z"},
      {{"der(x) - der(y) = -x", RowKind::kDifferential},
       {"2*der(y) - 2*der(x) = 1 - y", RowKind::kDifferential},
       {"der(z) = -z", RowKind::kDifferential}},
      [](double, std::span<const double> s, std::span<const double> ds, std::span<double> r) {
        r[0] = ds[0] - ds[1] + s[0];
        r[1] = 2.0 * ds[1] - 2.0 * ds[0] + s[1] - 1.0;
        r[2] = ds[2] + s[2];
      });
}

}  // namespace

TEST_CASE("the rows whose derivatives cancel give one hidden constraint with their weights") {
  const testing::TestModel model = make_pair();
  const std::vector<double> x{0.0, 3.0, 1.0};
  const std::vector<HiddenConstraint> hidden = find_hidden_constraints(model.problem(), x);
  REQUIRE(hidden.size() == 1);
  // The left null vector of M is (2, 1, 0) up to scale; the largest weight is 1, and the
  // echelon form puts its pivot on the first row it involves.
  CHECK(hidden[0].replaced_row == 0);
  CHECK(hidden[0].rows == std::vector<std::size_t>{0, 1});
  REQUIRE(hidden[0].coefficients.size() == 2);
  CHECK(hidden[0].coefficients[0] == doctest::Approx(1.0).epsilon(1e-12));
  CHECK(hidden[0].coefficients[1] == doctest::Approx(0.5).epsilon(1e-12));
  // A regular mass matrix has none.
  const testing::TestModel regular =
      testing::make_model({"x"}, {{"der(x) = -x", RowKind::kDifferential}},
                          [](double, std::span<const double> s, std::span<const double> ds,
                             std::span<double> r) { r[0] = ds[0] + s[0]; });
  CHECK(find_hidden_constraints(regular.problem(), std::vector<double>{1.0}).empty());
}

TEST_CASE("the jump solve enforces a hidden constraint and the derivatives differentiate it") {
  const testing::TestModel model = make_pair();
  const std::vector<double> x_minus{0.0, 3.0, 1.0};
  const std::vector<HiddenConstraint> hidden = find_hidden_constraints(model.problem(), x_minus);
  JumpProblem p = model.problem();
  p.hidden = hidden;
  // By hand: row 1 integrated over the impulse, 2 (D_y - D_x) = 0, so x and y jump by the same
  // D; x + y/2 = 1/2 at x^+ gives D + (3 + D)/2 = 1/2, D = -2/3; z has no reason to jump.
  const JumpOutcome jump = solve_jump(p, x_minus);
  REQUIRE(jump.status == SolveStatus::kOk);
  CHECK(jump.x_plus[0] == doctest::Approx(-2.0 / 3.0).epsilon(1e-9));
  CHECK(jump.x_plus[1] == doctest::Approx(7.0 / 3.0).epsilon(1e-9));
  CHECK(jump.x_plus[2] == doctest::Approx(1.0).epsilon(1e-12));
  // At x = (-1, 3, 1), which meets x + y/2 = 1/2: the constraint differentiated,
  // der(x) + der(y)/2 = 0, and row 1, 2 (der(y) - der(x)) = 1 - y = -2, give der(y) = -2/3,
  // der(x) = 1/3; row 0 then holds too (1/3 + 2/3 - 1 = 0). der(z) = -1.
  const std::vector<double> x{-1.0, 3.0, 1.0};
  const DerivativeOutcome out = consistent_derivatives(p, x);
  REQUIRE(out.status == SolveStatus::kOk);
  // The differentiated constraint has central differences of a linear function: round-off.
  CHECK(out.der_x[0] == doctest::Approx(1.0 / 3.0).epsilon(1e-9));
  CHECK(out.der_x[1] == doctest::Approx(-2.0 / 3.0).epsilon(1e-9));
  CHECK(out.der_x[2] == doctest::Approx(-1.0).epsilon(1e-14));
  // Without the hidden constraint J = M is singular, and the message names the pair.
  const DerivativeOutcome plain = consistent_derivatives(model.problem(), x);
  CHECK(plain.status == SolveStatus::kSingular);
  CHECK(plain.message.find("der(x) - der(y) = -x") != std::string::npos);
}

TEST_CASE("repeated pairs coupled by rounding give one hidden constraint each") {
  // The transistor amplifier's mass matrix with one source (docs/design.md,
  // "Sensitivities"): the model's eight f_d rows and their sensitivity copy, each with the pairs
  // (1, 2), (4, 5), (7, 8) of opposite rows, the copy's rows coupled to the model's columns by
  // the quotients' rounding (1e-14). The entries are those of the scaled matrix of that run:
  // M has rank 10 of 16, so six hidden constraints, one per pair, whatever the rounding.
  // Eigen's divide-and-conquer SVD returns wrong singular values for this matrix (rank 11).
  using Entry = std::tuple<int, int, double>;
  const double a = 0.99999999999999989;
  const std::vector<Entry> entries = {{0, 0, -1.0},
                                      {0, 1, 1.0},
                                      {1, 0, 1.0},
                                      {1, 1, -1.0},
                                      {2, 2, -1.0},
                                      {3, 3, -1.0},
                                      {3, 4, 1.0},
                                      {4, 3, 1.0},
                                      {4, 4, -1.0},
                                      {5, 5, -1.0},
                                      {6, 6, -a},
                                      {6, 7, a},
                                      {7, 6, a},
                                      {7, 7, -a},
                                      {8, 8, -1.0},
                                      {8, 9, 1.0},
                                      {9, 0, -1.0015380311515214e-14},
                                      {9, 1, -1.0015380311515214e-14},
                                      {9, 8, 1.0},
                                      {9, 9, -a},
                                      {10, 10, -1.0},
                                      {11, 3, -1.2161719971070954e-14},
                                      {11, 4, -1.2161719971070954e-14},
                                      {11, 11, -a},
                                      {11, 12, 1.0},
                                      {12, 3, -1.2161719971070954e-14},
                                      {12, 4, -1.2161719971070954e-14},
                                      {12, 11, 1.0},
                                      {12, 12, -a},
                                      {13, 13, -1.0},
                                      {14, 6, 1.3878791698715086e-14},
                                      {14, 7, 1.3878791698715086e-14},
                                      {14, 14, -0.99999999999999967},
                                      {14, 15, 1.0},
                                      {15, 14, 1.0},
                                      {15, 15, -1.0}};
  std::vector<std::string> names;
  std::vector<std::pair<std::string, RowKind>> rows;
  for (int i = 0; i < 16; ++i) {
    names.push_back("u" + std::to_string(i));
    rows.emplace_back("row " + std::to_string(i), RowKind::kDifferential);
  }
  const testing::TestModel model =
      testing::make_model(names, rows,
                          [entries](double, std::span<const double> s, std::span<const double> ds,
                                    std::span<double> r) {
                            for (std::size_t i = 0; i < r.size(); ++i) r[i] = s[i];
                            for (const auto& [i, j, m] : entries)
                              r[static_cast<std::size_t>(i)] += m * ds[static_cast<std::size_t>(j)];
                          });
  const std::vector<HiddenConstraint> hidden =
      find_hidden_constraints(model.problem(), std::vector<double>(16, 0.0));
  REQUIRE(hidden.size() == 6);
  for (const HiddenConstraint& h : hidden) {
    CAPTURE(h.replaced_row);
    CHECK(h.rows.size() == 2);  // a pair; the 1e-14 couplings are rounding, dropped
  }
}

}  // namespace hdae::reinit
