// analyze_index on models with a known index (hdae/structure.hpp; docs/design.md, "Structure
// and index").
#include <algorithm>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include "hdae/models/ideal_clutch.hpp"
#include "hdae/models/mass_spring_chain.hpp"
#include "hdae/simulator.hpp"
#include "hdae/structure.hpp"
#include "structure/leading_jacobian.hpp"
#include "structure/structure_models.hpp"

using namespace hdae;

namespace {

std::vector<double> zeros(std::size_t n) { return std::vector<double>(n, 0.0); }

std::vector<double> starts(const SimulationModel& m) {
  const std::span<const double> start = m.structure().variables.starts();
  return {start.begin(), start.end()};
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("the first-order Cartesian pendulum has index 3 and two degrees of freedom") {
  // Rows (A) der(x) = vx, (B) der(y) = vy, (C) m der(vx) = -lambda x, (D) m der(vy) =
  // -lambda y - m g, (E) x^2 + y^2 = L^2; unknowns (x, y, vx, vy, lambda). By hand:
  //   Sigma: A: x 1, vx 0; B: y 1, vy 0; C: vx 1, x 0, lambda 0; D: vy 1, y 0, lambda 0;
  //          E: x 0, y 0.
  //   Pryce's second-order pendulum has c = (0, 0, 2) for (x'' eq, y'' eq, constraint) and
  //   d = (2, 2, 0) for (x, y, lambda). Splitting x'' = vx' puts vx one order below x:
  //   d_vx = d_vy = 1, and the rows A, B that define vx, vy must be differentiated once so
  //   that der(x) = vx reaches x'' (d_x - c_A = 1 = sigma, so c_A = 2 - 1 = 1). C, D keep
  //   c = 0 (d_vx - c_C = 1), E keeps c = 2 (d_x - c_E = 0). Check of the inequalities:
  //   C: d_x - c_C = 2 >= 0, d_lambda - c_C = 0 >= 0; A: d_vx - c_A = 0 >= 0.
  //   So c = (1, 1, 0, 0, 2), d = (2, 2, 1, 1, 0): index max c + 1 (lambda algebraic) = 3,
  //   degrees of freedom (2+2+1+1+0) - (1+1+0+0+2) = 2 (angle and angular velocity).
  // The point x = 1, y = 0, lambda = 0 makes d(lambda x)/dx vanish there: the entry must
  // still be found (the random points around it).
  test::CartesianPendulum m;
  const std::vector<double> x{1.0, 0.0, 0.0, 0.0, 0.0};
  const IndexAnalysis a = analyze_index(m, 0.0, x, zeros(5), {}, "swinging");
  REQUIRE(a.verdict == IndexVerdict::kRegular);
  CHECK(a.sigma_method.c == std::vector<int>{1, 1, 0, 0, 2});
  CHECK(a.sigma_method.d == std::vector<int>{2, 2, 1, 1, 0});
  CHECK(a.index == 3);
  CHECK(a.degrees_of_freedom == 2);
  CHECK(a.signature.sigma(2, 0) == 0);  // lambda*x depends on x
  CHECK(a.signature.sigma(2, 2) == 1);
  CHECK(a.signature.sigma(0, 4) == SignatureMatrix::kAbsent);
  CHECK(a.mass_matrix_rank == 4);  // no der(lambda) anywhere
  CHECK(a.describe() ==
        "mode 'swinging' of model 'cartesian_pendulum': index 3, 2 degrees of freedom; "
        "equation 'x^2 + y^2 = L^2' differentiated twice; equations 'der(x) = vx', "
        "'der(y) = vy' differentiated once; equations 'm*der(vx) = -lambda*x', "
        "'m*der(vy) = -lambda*y - m*g' differentiated 0 times; state candidates: x, y, vx, vy; "
        "algebraic: lambda; mass matrix dF/d(der_x) singular (rank 4 of 5)");
}

TEST_CASE("the ideal clutch has index 1 engaged and is an implicit ODE (index 0) released") {
  // Engaged: 0 = w2 - w1 holds no derivative; with J1 der(w1) + tau ... and J2 der(w2) = tau
  // (tau = der(tau_int)) it must be differentiated once (w2' = w1'), then the three rows
  // determine der(w1), der(w2), der(tau_int): c = (0, 0, 1), d = (1, 1, 1), index 1, and
  // 3 - 1 = 2 degrees of freedom (the shared speed and tau_int, which only its derivative
  // enters).
  // Released: the rows hold der(w1), der(w2), der(tau_int) with a regular matrix
  // [J1 + k^2 C, 0, 1; 0, J2, -1; 0, 0, 1]: an implicit ODE, index 0, 3 degrees of freedom.
  models::IdealClutch clutch;
  SimulationOptions options;
  options.stop_s = 200.0;
  Simulator sim(clutch, options);
  sim.initialize();
  const std::vector<double> x0(sim.state().begin(), sim.state().end());
  const std::vector<double> dx0(sim.derivatives().begin(), sim.derivatives().end());
  const IndexAnalysis engaged = analyze_index(clutch, 0.0, x0, dx0, {}, "engaged");
  REQUIRE(engaged.verdict == IndexVerdict::kRegular);
  CHECK(engaged.sigma_method.c == std::vector<int>{0, 0, 1});
  CHECK(engaged.sigma_method.d == std::vector<int>{1, 1, 1});
  CHECK(engaged.index == 1);
  CHECK(engaged.degrees_of_freedom == 2);
  CHECK(engaged.constraint_rows_with_derivatives.empty());
  CHECK(contains(engaged.describe(),
                 "mode 'engaged' of model 'ideal_clutch': index 1, 2 "
                 "degrees of freedom; equation 'engaged: 0 = w2 - w1; "
                 "released: 0 = tau' differentiated once"));

  sim.advance_to(150.0);  // released at t = 100
  REQUIRE_FALSE(clutch.engaged());
  const std::vector<double> x1(sim.state().begin(), sim.state().end());
  const std::vector<double> dx1(sim.derivatives().begin(), sim.derivatives().end());
  const std::vector<RowKind> kinds(3, RowKind::kDifferential);
  const IndexAnalysis released = analyze_index(clutch, 150.0, x1, dx1, kinds, "released");
  REQUIRE(released.verdict == IndexVerdict::kRegular);
  CHECK(released.index == 0);
  CHECK(released.degrees_of_freedom == 3);
  CHECK(released.sigma_method.c == std::vector<int>{0, 0, 0});
  CHECK_FALSE(released.mass_matrix_singular());

  // The released structure with the engaged row kinds: the clutch row, declared a
  // constraint, holds der(tau_int), which the analysis reports.
  const IndexAnalysis mismatch = analyze_index(clutch, 150.0, x1, dx1, {}, "released");
  CHECK(mismatch.constraint_rows_with_derivatives == std::vector<std::size_t>{2});
  CHECK(contains(mismatch.describe(),
                 "equations 'engaged: 0 = w2 - w1; released: 0 = tau' "
                 "are constraint rows but contain derivatives"));
}

TEST_CASE("the mass-spring chain is semi-explicit index 1, found through its declared pattern") {
  // der(s_i) = v_i, m der(v_i) = f_{i+1} - f_i - d v_i, 0 = f_i - k (s_i - s_{i-1}): the
  // forces are algebraic (d = 0), nothing is differentiated (c = 0): index 1, and the
  // 2N positions and speeds are the degrees of freedom.
  models::MassSpringChain chain(models::MassSpringChainParameters{.masses = 50});
  const std::size_t n = chain.structure().num_unknowns();
  const IndexAnalysis a = analyze_index(chain, 0.0, starts(chain), zeros(n));
  REQUIRE(a.verdict == IndexVerdict::kRegular);
  CHECK(a.index == 1);
  CHECK(a.degrees_of_freedom == 100);
  CHECK(
      std::all_of(a.sigma_method.c.begin(), a.sigma_method.c.end(), [](int c) { return c == 0; }));
  // Entries: 2 per kinematic row (s_i, v_i); 3 per dynamic row (v_i, f_i, f_{i+1}), 2 in the
  // last; 3 per spring (f_i, s_i, s_{i-1}), 2 in the first: 8N - 2 in all.
  CHECK(a.signature.entries.size() == 8 * 50 - 2);
  CHECK(a.mass_matrix_rank == 100);
}

TEST_CASE("two equations in one variable are reported as structurally singular") {
  test::TwoEquationsOneVariable m;
  const IndexAnalysis a = analyze_index(m, 0.0, zeros(2), zeros(2));
  CHECK(a.verdict == IndexVerdict::kStructurallySingular);
  CHECK(a.sigma_method.overdetermined_rows == std::vector<std::size_t>{0, 1});
  CHECK(a.sigma_method.overdetermined_cols == std::vector<std::size_t>{0});
  CHECK(a.sigma_method.underdetermined_cols == std::vector<std::size_t>{1});
  CHECK(a.describe() ==
        "model 'two_equations_one_variable': structurally singular (no transversal); "
        "over-determined: equations 'x = 1', '2*x = sin(t)' involve only variable x; "
        "variable y appears in no equation; mass matrix dF/d(der_x) singular (rank 0 of 2)");
}

TEST_CASE("structurally regular but numerically singular rows are named") {
  // x + y = 0 and 2x + 2y = sin t: Sigma has the transversal (x, y) with all offsets 0, but
  // J = [1 1; 2 2] is singular. The combination (first) - 0.5 (second) = 0.5 sin t depends
  // on no unknown, so no correction can help.
  test::DependentRows m;
  const IndexAnalysis a = analyze_index(m, 0.3, zeros(2), zeros(2));
  CHECK(a.verdict == IndexVerdict::kNumericallySingular);
  CHECK(a.sigma_method.has_transversal);
  CHECK(a.dependent_rows.size() == 2);
  CHECK(a.corrections.empty());
  const std::string text = a.describe();
  CHECK(contains(text,
                 "model 'dependent_rows': structurally regular (transversal value 0) "
                 "but the system Jacobian is singular at t = 0.3: equations "));
  CHECK(contains(text, "'x + y = 0'"));
  CHECK(contains(text, "'2*x + 2*y = sin(t)'"));
  CHECK(contains(text,
                 "the combination 1*'x + y = 0' - 0.5*'2*x + 2*y = sin(t)' of the "
                 "dependent equations depends on no unknown"));
}

TEST_CASE("dependent rows with different offsets are reported, not combined") {
  // J = [d(row 1)/d der(x), d(row 1)/d der(y); d(row 2)/dx, d(row 2)/dy] = [1 1; 1 1]: the
  // combination row 1 - row 2 would need row 2 differentiated once, which is not formed.
  test::DifferentOffsets m;
  const IndexAnalysis a = analyze_index(m, 0.0, zeros(2), zeros(2));
  CHECK(a.verdict == IndexVerdict::kNumericallySingular);
  CHECK(a.sigma_method.c == std::vector<int>{0, 1});
  CHECK(a.sigma_method.d == std::vector<int>{1, 1});
  CHECK(a.dependent_rows.size() == 2);
  CHECK(contains(a.describe(),
                 "; no correction tried: the dependent equations "
                 "'der(x) + der(y) = -x', 'x + y = sin(t)' have different "
                 "offsets, and their combination would need differentiated "
                 "equations"));
}

TEST_CASE("the transistor amplifier's singular mass matrix is corrected to index 1") {
  // M der(y) = f with rows (1, 2), (4, 5), (7, 8) pairwise dependent in der(y): the
  // structure alone (all sigma = 1 on the diagonal, c = 0) claims an ODE, but J = M has rank
  // 5. Adding each pair cancels its derivatives (sum of the pair = -(f_i + f_j)), giving three
  // algebraic constraints differentiated once: c = 1 on rows 1, 4, 7, d = 1 everywhere,
  // index 1 (Hairer & Wanner give index 1), 8 - 3 = 5 degrees of freedom (the rank of M).
  test::TransistorAmplifier m;
  const IndexAnalysis a = analyze_index(m, 0.0, starts(m), zeros(8));
  REQUIRE(a.verdict == IndexVerdict::kRegular);
  CHECK(a.index == 1);
  CHECK(a.degrees_of_freedom == 5);
  CHECK(a.mass_matrix_rank == 5);
  CHECK(a.mass_matrix_singular());
  CHECK(a.sigma_method.c == std::vector<int>{1, 0, 0, 1, 0, 0, 1, 0});
  REQUIRE(a.corrections.size() == 3);
  // The pairs may be found in any order (the null basis of J is one subspace); each replaces
  // its first row by the plain sum of the pair.
  std::vector<RowCombination> found = a.corrections;
  std::sort(found.begin(), found.end(), [](const RowCombination& l, const RowCombination& r) {
    return l.replaced_row < r.replaced_row;
  });
  for (std::size_t k = 0; k < 3; ++k) {
    CHECK(found[k].replaced_row == 3 * k);
    CHECK(found[k].rows == std::vector<std::size_t>{3 * k, 3 * k + 1});
    REQUIRE(found[k].coefficients.size() == 2);
    CHECK(found[k].coefficients[0] == 1.0);
    CHECK(found[k].coefficients[1] == doctest::Approx(1.0).epsilon(1e-12));
  }
  CHECK(contains(a.describe(), "mass matrix dF/d(der_x) singular (rank 5 of 8)"));
}

TEST_CASE("the ITI paper's examples 1 and 2 get their published indices") {
  // Example 1 (x1 = t, x2 = der(x1)): the paper calls the first row an algebraic and the
  // second a hidden constraint. By hand: c = (1, 0), d = (1, 0), index 1 + 1 = 2 (x2 is
  // algebraic), no degree of freedom.
  test::ItiExample1 one;
  const IndexAnalysis a = analyze_index(one, 0.0, zeros(2), zeros(2));
  REQUIRE(a.verdict == IndexVerdict::kRegular);
  CHECK(a.sigma_method.c == std::vector<int>{1, 0});
  CHECK(a.sigma_method.d == std::vector<int>{1, 0});
  CHECK(a.index == 2);
  CHECK(a.degrees_of_freedom == 0);
  // Example 2 (1 = if t < 0.5 then x else der(x)): the paper gives differentiation index 1
  // before t = 0.5 and 0 after; the structure follows the branch taken at the point.
  test::ItiExample2 two;
  CHECK(analyze_index(two, 0.2, zeros(1), zeros(1)).index == 1);
  CHECK(analyze_index(two, 0.7, zeros(1), zeros(1)).index == 0);
}

namespace {

/// The same model with another declared sparsity pattern (empty: none, so that detection
/// probes every unknown on its own instead of by colours).
class WithPattern final : public SimulationModel {
 public:
  WithPattern(SimulationModel& inner, std::vector<SparsityEntry> pattern)
      : inner_(inner), s_(inner.structure()) {
    s_.sparsity = {};
    for (const SparsityEntry& e : pattern) s_.sparsity.add(e);
  }
  const ModelStructure& structure() const override { return s_; }
  void evaluate(Evaluation& e) override { inner_.evaluate(e); }

 private:
  SimulationModel& inner_;
  ModelStructure s_;
};

}  // namespace

TEST_CASE("a large chain takes the sparse rank check, and colours find what single probes find") {
  // 200 masses: 600 unknowns, beyond the dense analysis. Index 1 and 400 degrees of freedom
  // as for the small chain; the signature found by colour groups of the declared pattern
  // equals the one found by probing every unknown on its own.
  models::MassSpringChain chain(models::MassSpringChainParameters{.masses = 200});
  const std::size_t n = chain.structure().num_unknowns();
  const IndexAnalysis a = analyze_index(chain, 0.0, starts(chain), zeros(n));
  REQUIRE(a.verdict == IndexVerdict::kRegular);
  CHECK(a.index == 1);
  CHECK(a.degrees_of_freedom == 400);
  CHECK(a.mass_matrix_rank == 400);
  WithPattern plain(chain, {});
  const SignatureMatrix single = detect_signature(plain, 0.0, starts(chain), zeros(n));
  REQUIRE(single.entries.size() == a.signature.entries.size());
  for (std::size_t k = 0; k < single.entries.size(); ++k) {
    CHECK(single.entries[k].row == a.signature.entries[k].row);
    CHECK(single.entries[k].col == a.signature.entries[k].col);
    CHECK(single.entries[k].sigma == a.signature.entries[k].sigma);
  }
}

TEST_CASE("a corrected row is probed with the union of the declared patterns it combines") {
  // The transistor amplifier with its equations' own pattern declared (the entries detection
  // finds without one): each combined row holds the unknowns of both rows of its pair, so
  // without the union its changes would fall outside the pattern (a ModelError). The result
  // is the one without a pattern, index 1 after three corrections.
  test::TransistorAmplifier m;
  const SignatureMatrix plain = detect_signature(m, 0.0, starts(m), zeros(8));
  std::vector<SparsityEntry> pattern;
  for (const SignatureEntry& e : plain.entries) pattern.push_back({e.row, e.col});
  WithPattern declared(m, pattern);
  const IndexAnalysis a = analyze_index(declared, 0.0, starts(m), zeros(8));
  REQUIRE(a.verdict == IndexVerdict::kRegular);
  CHECK(a.index == 1);
  CHECK(a.corrections.size() == 3);
  CHECK(a.sigma_method.c == std::vector<int>{1, 0, 0, 1, 0, 0, 1, 0});
}

TEST_CASE("the mass matrix rank is the sum of its blocks' ranks") {
  // Rows and columns linked by entries form a block: {0, 1} x {0, 1} holds [1 2; 2 4] (rank 1,
  // its rows proportional), row 2 and column 3 the entry 5, row 3 and column 2 the entry 1e-3.
  // Total rank 3; with blocks of at most one row the analysis declines.
  ModelStructure s;
  for (const char* name : {"a", "b", "c", "d"}) s.variables.add({.name = name});
  const std::vector<structure::MatrixEntry> m = {{0, 0, 1.0}, {0, 1, 2.0}, {1, 0, 2.0},
                                                 {1, 1, 4.0}, {2, 3, 5.0}, {3, 2, 1e-3}};
  CHECK(structure::rank_by_blocks(s, m, 4) == std::optional<std::size_t>(3));
  CHECK(!structure::rank_by_blocks(s, m, 1).has_value());
}
