// The numerical detection of the signature matrix (hdae/structure.hpp, detect_signature).
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "hdae/errors.hpp"
#include "hdae/structure.hpp"
#include "structure/structure_models.hpp"

using namespace hdae;

namespace {

/// Two unknowns (a, b) and two rows whose residuals a test supplies.
class TwoRows final : public Model {
 public:
  using Rows = std::function<void(double a, double da, double b, double db, double r[2])>;
  explicit TwoRows(Rows rows, bool declare_pattern = false)
      : Model("two_rows"), rows_(std::move(rows)) {
    a_ = declare_variable({.name = "a"});
    b_ = declare_variable({.name = "b"});
    first_ = declare_equation("first");
    second_ = declare_equation("second");
    if (declare_pattern) {  // the second row declared independent of a
      declare_dependency(first_, a_);
      declare_dependency(first_, b_);
      declare_dependency(second_, b_);
    }
  }
  void evaluate(Evaluation& e) override {
    double r[2];
    rows_(e.x(a_), e.der(a_), e.x(b_), e.der(b_), r);
    e.set(first_, r[0]);
    e.set(second_, r[1]);
  }

 private:
  Rows rows_;
  Var a_, b_;
  Eq first_, second_;
};

std::string error_of(SimulationModel& m, std::vector<double> x, std::vector<double> dx) {
  try {
    static_cast<void>(detect_signature(m, 0.0, x, dx));
  } catch (const ModelError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("the pendulum's signature separates x from der(x) in every row") {
  // Read off the equations (test/structure_models.hpp): 12 entries, 4 of them derivatives.
  test::CartesianPendulum m;
  const std::vector<double> x{0.6, -0.8, 0.1, 0.2, 3.0}, dx(5, 0.0);
  const SignatureMatrix s = detect_signature(m, 0.0, x, dx);
  const std::vector<SignatureEntry> expected{{0, 0, 1}, {0, 2, 0}, {1, 1, 1}, {1, 3, 0},
                                             {2, 0, 0}, {2, 2, 1}, {2, 4, 0}, {3, 1, 0},
                                             {3, 3, 1}, {3, 4, 0}, {4, 0, 0}, {4, 1, 0}};
  REQUIRE(s.entries.size() == expected.size());
  for (std::size_t k = 0; k < expected.size(); ++k) {
    CHECK(s.entries[k].row == expected[k].row);
    CHECK(s.entries[k].col == expected[k].col);
    CHECK(s.entries[k].sigma == expected[k].sigma);
  }
}

TEST_CASE("a dependence that cancels in floating point is not an entry") {
  // first = (a + b) - b reads b but does not depend on it: the change of a b-probe is
  // rounding (~1e-16 of the terms), far below 1e-7 of the change an a-probe causes.
  // second = der(b) + 1e-3 a: a weak but genuine entry (1e-3 of der(b)'s) is kept.
  TwoRows m([](double a, double, double b, double db, double r[2]) {
    r[0] = (a + b) - b;
    r[1] = db + 1e-3 * a;
  });
  const SignatureMatrix s =
      detect_signature(m, 0.0, std::vector<double>{0.3, 0.7}, std::vector<double>{0.0, 0.0});
  CHECK(s.sigma(0, 0) == 0);
  CHECK(s.sigma(0, 1) == SignatureMatrix::kAbsent);
  CHECK(s.sigma(1, 0) == 0);
  CHECK(s.sigma(1, 1) == 1);
}

TEST_CASE("structure detection names a row that leaves the declared pattern") {
  TwoRows m(
      [](double a, double da, double b, double, double r[2]) {
        r[0] = da + b;
        r[1] = b - a;  // depends on a, declared independent of it
      },
      true);
  CHECK(error_of(m, {1.0, 2.0}, {0.0, 0.0}) ==
        "model 'two_rows': equation 'second' changes when variable 'a' is perturbed, but the "
        "declared sparsity pattern has none of them in that equation");
}

TEST_CASE("structure detection names a row whose residual is not finite") {
  TwoRows m([](double a, double da, double b, double, double r[2]) {
    r[0] = da + std::sqrt(a);  // a = -1 is outside the domain
    r[1] = b;
  });
  CHECK(error_of(m, {-1.0, 0.0}, {0.0, 0.0}) ==
        "model 'two_rows': structure detection: residual of equation 'first' is not finite "
        "at t = 0 at random point 1 near the given one (probe points lie within the relative "
        "spread of SignatureDetection around the given point)");
}

TEST_CASE("the index analysis rejects spans of the wrong size") {
  test::CartesianPendulum m;
  const std::vector<double> x(4, 0.0), dx(5, 0.0);
  CHECK_THROWS_WITH_AS(static_cast<void>(analyze_index(m, 0.0, x, dx)),
                       "model 'cartesian_pendulum': analyze_index: x has 4 entries, the model "
                       "has 5 unknowns",
                       ModelError);
}

TEST_CASE("the index analysis rejects a model that is not square, naming it") {
  // One equation for two unknowns: ModelStructure::validate's message, before any evaluation.
  class NotSquare final : public Model {
   public:
    NotSquare() : Model("not_square") {
      a_ = declare_variable({.name = "a"});
      declare_variable({.name = "b"});
      eq_ = declare_equation("der(a) = 0");
    }
    void evaluate(Evaluation& e) override { e.set(eq_, e.der(a_)); }

   private:
    Var a_;
    Eq eq_;
  } m;
  const std::vector<double> x(2, 0.0);
  CHECK_THROWS_WITH_AS(static_cast<void>(analyze_index(m, 0.0, x, x)),
                       "model 'not_square' declares 2 variables but 1 equations; the residual "
                       "must be square",
                       ModelError);
}
