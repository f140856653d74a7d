// analyze_index on the slider crank with an elastic connecting rod
// (models/elastic_slider_crank.hpp): a stiff model whose rows mix inertial terms of order 1e-2 kg
// with stiffness entries of 4e7 N/m, at the default nominals.
#include <span>
#include <vector>

#include <doctest/doctest.h>

#include "hdae/models/elastic_slider_crank.hpp"
#include "hdae/structure.hpp"

using namespace hdae;

TEST_CASE("the elastic slider crank has index 3 and twice its mechanical degrees of freedom") {
  models::ElasticSliderCrank model;
  const std::span<const double> start = model.structure().variables.starts();
  const std::vector<double> x(start.begin(), start.end());
  const std::vector<double> der_x(x.size(), 0.0);
  const IndexAnalysis a = analyze_index(model, 0.0, x, der_x);
  MESSAGE(a.describe());
  // Coordinates theta, xA, yA, phi, qa, q1, q2, xB (8) under the four position constraints of
  // the crank pin and the rod's end on the guide: f = 8 - 4 = 4 mechanical degrees of freedom.
  // In first-order form the positions appear to order 2, the velocities to order 1 and the
  // forces to order 0 (sum d = 16 + 8), the kinematic rows are differentiated once and the
  // constraints twice (sum c = 8 + 8): 2 f = 8 degrees of freedom; the constraints
  // differentiated twice and the algebraic forces make the index 3.
  REQUIRE(a.verdict == IndexVerdict::kRegular);
  CHECK(a.index == 3);
  CHECK(a.degrees_of_freedom == 8);
  CHECK(x.size() == 20);
}
