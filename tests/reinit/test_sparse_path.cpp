// The sparse path of the re-initialization module (coloured differences + KLU) against the
// dense path on a chain of 300 unknowns (docs/design.md, "The jump solve": dense or sparse,
// one threshold).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "linalg/fd_jacobian.hpp"
#include "linalg/linear_solver.hpp"
#include "linalg/rank_diagnosis.hpp"
#include "model/model_pattern.hpp"
#include "reinit/consistent_derivatives.hpp"
#include "reinit/jump_solver.hpp"
#include "reinit/workspace.hpp"
#include "reinit_test_models.hpp"

namespace hdae::reinit {
namespace {

constexpr std::size_t kPairs = 150;  // 300 unknowns

enum class LastLink { kOwn, kCopyOfPrevious };

/// Pairs (a_k, b_k) = (x[2k], x[2k+1]), k = 0..K-1:
///   (1 + 0.1 a_k^2) der(a_k) + der(b_k) + sin(a_{k-1}) = 0        f_d (k > 0 for the sine)
///   b_k - 0.5 a_k - 0.1 a_{k+1}^2 - 1 = 0                         f_c (k < K-1 for a_{k+1})
/// The jump is nonlinear (M_d depends on a_k, the constraint on a_{k+1}^2) and couples the
/// whole chain; each row touches at most three unknowns. LastLink::kCopyOfPrevious makes the
/// last link a copy of the one before it (a modelling error: two equal rows).
testing::TestModel make_chain(bool declare_pattern, std::shared_ptr<long> calls,
                              std::size_t pairs = kPairs, LastLink last = LastLink::kOwn) {
  std::vector<std::string> names;
  std::vector<std::pair<std::string, RowKind>> equations;
  for (std::size_t k = 0; k < pairs; ++k) {
    names.push_back("a" + std::to_string(k));
    names.push_back("b" + std::to_string(k));
    equations.emplace_back("momentum " + std::to_string(k), RowKind::kDifferential);
    equations.emplace_back("link " + std::to_string(k), RowKind::kConstraint);
  }
  testing::TestModel m =
      testing::make_model(names, equations,
                          [calls, pairs, last](double, std::span<const double> x,
                                               std::span<const double> dx, std::span<double> r) {
                            ++*calls;
                            const auto link = [&](std::size_t k) {
                              const double next = k + 1 < pairs ? x[2 * k + 2] : 0.0;
                              return x[2 * k + 1] - 0.5 * x[2 * k] - 0.1 * next * next - 1.0;
                            };
                            for (std::size_t k = 0; k < pairs; ++k) {
                              const double a = x[2 * k];
                              const double previous = k > 0 ? std::sin(x[2 * k - 2]) : 0.0;
                              r[2 * k] = (1.0 + 0.1 * a * a) * dx[2 * k] + dx[2 * k + 1] + previous;
                              const bool copy = last == LastLink::kCopyOfPrevious && k + 1 == pairs;
                              r[2 * k + 1] = copy ? link(k - 1) : link(k);
                            }
                          });
  if (declare_pattern) {
    for (std::size_t k = 0; k < pairs; ++k) {
      const std::size_t a = 2 * k, b = 2 * k + 1;
      m.structure.sparsity.add({a, a});
      m.structure.sparsity.add({a, b});
      if (k > 0) m.structure.sparsity.add({a, a - 2});
      m.structure.sparsity.add({b, b});
      m.structure.sparsity.add({b, a});
      if (k + 1 < pairs) m.structure.sparsity.add({b, a + 2});
      if (last == LastLink::kCopyOfPrevious && k + 1 == pairs) {
        for (const std::size_t col : {a - 2, a - 1, a}) m.structure.sparsity.add({b, col});
      }
    }
    m.use_sparse_path();
  }
  return m;
}

std::vector<double> chain_start(std::size_t pairs = kPairs) {
  std::vector<double> x(2 * pairs, 0.0);
  for (std::size_t k = 0; k < pairs; ++k) x[2 * k] = 1.0 + 0.01 * static_cast<double>(k);
  return x;  // every b_k = 0 violates its link
}

TEST_CASE("a coloured difference Jacobian equals the column-by-column one") {
  auto calls = std::make_shared<long>(0);
  const testing::TestModel chain = make_chain(true, calls);
  const sparsity::SparsityPattern pattern = detail::pattern_of(chain.structure);
  // Column 2k meets rows 2k-1..2k+2, column 2k+1 rows 2k..2k+1: a handful of colours.
  CHECK(pattern.num_colors <= 5);

  const std::vector<double> x = chain_start();
  const std::vector<double> zeros(x.size(), 0.0);
  std::vector<double> r0(x.size()), r1(x.size()), xs(x.size());
  chain.residual(0.0, x, zeros, r0);
  Eigen::VectorXd increments(static_cast<Eigen::Index>(x.size()));
  for (std::size_t j = 0; j < x.size(); ++j) {
    increments[static_cast<Eigen::Index>(j)] = linalg::difference_increment(x[j], 1.0);
  }
  const linalg::DifferenceFunction diff = [&](const Eigen::VectorXd& step, Eigen::VectorXd& d) {
    for (std::size_t j = 0; j < x.size(); ++j) xs[j] = x[j] + step[static_cast<Eigen::Index>(j)];
    chain.residual(0.0, xs, zeros, r1);
    for (std::size_t i = 0; i < x.size(); ++i) d[static_cast<Eigen::Index>(i)] = r1[i] - r0[i];
  };
  *calls = 0;
  const linalg::ColouredPattern coloured_pattern(pattern);
  const linalg::JacobianMatrix coloured =
      linalg::coloured_difference_jacobian(&coloured_pattern, increments, diff);
  CHECK(*calls == static_cast<long>(pattern.num_colors));
  const linalg::JacobianMatrix dense =
      linalg::coloured_difference_jacobian(nullptr, increments, diff);
  // Each row reads only its own entries, so a row sees the same perturbed arguments either
  // way and the quotients are the same numbers.
  CHECK(coloured.is_sparse);
  CHECK((coloured.to_dense() - dense.dense).cwiseAbs().maxCoeff() == 0.0);
}

TEST_CASE("a difference Jacobian filled into a kept matrix is the coloured one, in its storage") {
  auto calls = std::make_shared<long>(0);
  const testing::TestModel chain = make_chain(true, calls);
  const linalg::ColouredPattern coloured_pattern(detail::pattern_of(chain.structure));
  const std::vector<double> x = chain_start();
  const std::vector<double> zeros(x.size(), 0.0);
  std::vector<double> r1(x.size()), xs(x.size());
  const auto n = static_cast<Eigen::Index>(x.size());
  Eigen::VectorXd increments(n), base(n);
  chain.residual(0.0, x, zeros, r1);
  for (Eigen::Index j = 0; j < n; ++j) {
    increments[j] = linalg::difference_increment(x[static_cast<std::size_t>(j)], 1.0);
    base[j] = r1[static_cast<std::size_t>(j)];
  }
  const linalg::DifferenceFunction diff = [&](const Eigen::VectorXd& step, Eigen::VectorXd& d) {
    for (std::size_t j = 0; j < x.size(); ++j) xs[j] = x[j] + step[static_cast<Eigen::Index>(j)];
    chain.residual(0.0, xs, zeros, r1);
    d = Eigen::Map<const Eigen::VectorXd>(r1.data(), n) - base;
  };
  const linalg::SteppedFunction stepped = [&](std::span<const sparsity::Index> columns,
                                              Eigen::VectorXd& after) {
    xs = x;
    for (const std::size_t j : columns) xs[j] = x[j] + increments[static_cast<Eigen::Index>(j)];
    chain.residual(0.0, xs, zeros, r1);
    after = Eigen::Map<const Eigen::VectorXd>(r1.data(), n);
  };
  const std::array<const linalg::ColouredPattern*, 2> patterns{&coloured_pattern, nullptr};
  for (const linalg::ColouredPattern* pattern : patterns) {
    const linalg::JacobianMatrix expected =
        linalg::coloured_difference_jacobian(pattern, increments, diff);
    linalg::JacobianMatrix into;
    *calls = 0;
    linalg::difference_jacobian_into(pattern, increments, base, stepped, into);
    CHECK(*calls == (pattern != nullptr ? static_cast<long>(pattern->pattern.num_colors) : n));
    CHECK(into.is_sparse == expected.is_sparse);
    CHECK((into.to_dense() - expected.to_dense()).cwiseAbs().maxCoeff() == 0.0);
    // A second matrix of the same pattern goes where the first was.
    into.scale(Eigen::VectorXd::Constant(n, 2.0), Eigen::VectorXd::Ones(n));
    const double* values = into.is_sparse ? into.sparse.valuePtr() : into.dense.data();
    linalg::difference_jacobian_into(pattern, increments, base, stepped, into);
    CHECK((into.is_sparse ? into.sparse.valuePtr() : into.dense.data()) == values);
    CHECK((into.to_dense() - expected.to_dense()).cwiseAbs().maxCoeff() == 0.0);
  }
}

TEST_CASE("the sparse jump solve agrees with the dense one at a fraction of the residual calls") {
  auto sparse_calls = std::make_shared<long>(0);
  auto dense_calls = std::make_shared<long>(0);
  const testing::TestModel sparse_chain = make_chain(true, sparse_calls);
  const testing::TestModel dense_chain = make_chain(false, dense_calls);
  const std::vector<double> x_minus = chain_start();

  JumpProblem sparse_problem = sparse_chain.problem();
  JumpProblem dense_problem = dense_chain.problem();
  sparse_problem.tolerance = dense_problem.tolerance = 1e-12;
  const JumpOutcome sparse = solve_jump(sparse_problem, x_minus);
  const JumpOutcome dense = solve_jump(dense_problem, x_minus);
  REQUIRE(sparse.status == SolveStatus::kOk);
  REQUIRE(dense.status == SolveStatus::kOk);
  CHECK(sparse.iterations == dense.iterations);
  // Both are within the 1e-12 Newton tolerance of the same root (nominals 1); 1e-10 leaves
  // room for the different pivoting of KLU and FullPivLU.
  double largest_difference = 0.0;
  for (std::size_t j = 0; j < x_minus.size(); ++j) {
    largest_difference = std::max(largest_difference, std::abs(sparse.x_plus[j] - dense.x_plus[j]));
  }
  CHECK(largest_difference < 1e-10);
  // Every link holds at x+.
  for (std::size_t k = 0; k + 1 < kPairs; ++k) {
    const double a = sparse.x_plus[2 * k], b = sparse.x_plus[2 * k + 1];
    const double next = sparse.x_plus[2 * k + 2];
    CHECK(std::abs(b - 0.5 * a - 0.1 * next * next - 1.0) < 1e-10);
  }
  // A Newton matrix costs (colours + 1) jump residuals on the sparse path and (n + 1) on the
  // dense one; with 3 model calls per jump residual the sparse run needs far fewer calls.
  CHECK(*sparse_calls * 20 < *dense_calls);
}

TEST_CASE("sparse and dense consistent derivatives agree on the chain") {
  auto calls = std::make_shared<long>(0);
  const testing::TestModel sparse_chain = make_chain(true, calls);
  const testing::TestModel dense_chain = make_chain(false, calls);
  const JumpOutcome jump = solve_jump(sparse_chain.problem(), chain_start());
  REQUIRE(jump.status == SolveStatus::kOk);

  const DerivativeOutcome sparse = consistent_derivatives(sparse_chain.problem(), jump.x_plus);
  const DerivativeOutcome dense = consistent_derivatives(dense_chain.problem(), jump.x_plus);
  REQUIRE(sparse.status == SolveStatus::kOk);
  REQUIRE(dense.status == SolveStatus::kOk);
  // Same difference quotients (see above), different LU pivoting: agreement to rounding,
  // amplified by the condition of J; 1e-9 relative to max(|der|, 1).
  for (std::size_t j = 0; j < jump.x_plus.size(); ++j) {
    CHECK(sparse.der_x[j] == doctest::Approx(dense.der_x[j]).epsilon(1e-9));
  }
}

TEST_CASE("the sparse path keeps fixed start values and agrees with the dense one") {
  auto calls = std::make_shared<long>(0);
  testing::TestModel sparse_chain = make_chain(true, calls);
  testing::TestModel dense_chain = make_chain(false, calls);
  // Fix a_0: its jump becomes a slack, the system stays square and regular, and the
  // least-squares step of the sparse QR equals the dense minimum-norm one.
  sparse_chain.structure.variables.declared(0).fixed = true;
  dense_chain.structure.variables.declared(0).fixed = true;
  const std::vector<double> x_minus = chain_start();
  const JumpOutcome sparse =
      solve_jump(sparse_chain.problem(0.0, JumpRule::kMidpoint, FixedValues::kKeep), x_minus);
  const JumpOutcome dense =
      solve_jump(dense_chain.problem(0.0, JumpRule::kMidpoint, FixedValues::kKeep), x_minus);
  REQUIRE(sparse.status == SolveStatus::kOk);
  REQUIRE(dense.status == SolveStatus::kOk);
  CHECK(sparse.warnings.empty());
  CHECK(sparse.x_plus[0] == x_minus[0]);
  // Both within the 1e-9 Newton tolerance of the same root: 1e-8 allows both errors.
  for (std::size_t j = 0; j < x_minus.size(); ++j) {
    CHECK(sparse.x_plus[j] == doctest::Approx(dense.x_plus[j]).epsilon(1e-8));
  }
}

/// The message part "{names}" expected for the undetermined variables of the chain whose last
/// link copies the previous one, from its null vector worked out by hand: at x^- (no jump yet)
/// momentum row k reads m_k v_a_k + v_b_k = 0 with m_k = 1 + 0.1 a_k^2, and link k reads
/// v_b_k - 0.5 v_a_k - 0.2 a_(k+1) v_a_(k+1) = 0, so v_a_(K-1) = 1 is free and
/// v_a_k = -0.2 a_(k+1) v_a_(k+1) / (m_k + 0.5). A variable is named when its share of the
/// unit null vector exceeds 1e-6 (rank_diagnosis.cpp); the dozen strongest are listed.
std::string expected_undetermined(std::size_t pairs) {
  const std::vector<double> a = chain_start(pairs);
  std::vector<double> v(2 * pairs, 0.0);
  v[2 * pairs - 2] = 1.0;
  for (std::size_t k = pairs - 1; k-- > 0;) {
    const double m = 1.0 + 0.1 * a[2 * k] * a[2 * k];
    v[2 * k] = -0.2 * a[2 * k + 2] * v[2 * k + 2] / (m + 0.5);
  }
  for (std::size_t k = 0; k < pairs; ++k)
    v[2 * k + 1] = -(1.0 + 0.1 * a[2 * k] * a[2 * k]) * v[2 * k];
  double norm = 0.0;
  for (const double c : v) norm += c * c;
  norm = std::sqrt(norm);
  std::vector<std::pair<double, std::size_t>> named;  // (share, index)
  for (std::size_t j = 0; j < v.size(); ++j) {
    const double share = std::abs(v[j]) / norm;
    // Guard: no share within 5% of the threshold, where difference noise (~1e-8 of the
    // entries) could tip it.
    REQUIRE((share > 1.05e-6 || share < 0.95e-6));
    if (share > 1e-6) named.emplace_back(share, j);
  }
  // The dozen strongest are listed, in model order; the rest are counted.
  std::sort(named.begin(), named.end(),
            [](const auto& l, const auto& r) { return l.first > r.first; });
  std::vector<std::size_t> shown;
  for (std::size_t i = 0; i < named.size() && i < 12; ++i) shown.push_back(named[i].second);
  std::sort(shown.begin(), shown.end());
  std::string out = "{";
  for (std::size_t i = 0; i < shown.size(); ++i) {
    out += (i > 0 ? ", " : "") + std::string(shown[i] % 2 == 0 ? "a" : "b") +
           std::to_string(shown[i] / 2);
  }
  if (named.size() > 12) out += ", ... (" + std::to_string(named.size() - 12) + " more)";
  return out + "}";
}

TEST_CASE("a singular sparse jump matrix is reported with the dependent links named") {
  // 300 unknowns: KLU finds the zero pivot and a dense SVD names the parts; 600 unknowns:
  // the sparse QR null bases name them.
  for (const std::size_t pairs : {std::size_t{150}, std::size_t{300}}) {
    CAPTURE(pairs);
    auto calls = std::make_shared<long>(0);
    const testing::TestModel chain = make_chain(true, calls, pairs, LastLink::kCopyOfPrevious);
    const JumpOutcome out = solve_jump(chain.problem(), chain_start(pairs));
    CHECK(out.status == SolveStatus::kSingular);
    // Two equal rows and a rank drop of one: the left null space is their difference.
    const std::string last = std::to_string(pairs - 1);
    const std::string before = std::to_string(pairs - 2);
    CHECK(out.message == "the jump matrix [M_d; df_c/dx] is singular at t = 0: equations {link " +
                             before + ", link " + last + "} are dependent; variables " +
                             expected_undetermined(pairs) + " are not determined");
  }
}

TEST_CASE("a run's workspace orders the pattern once and gives the answers of fresh solves") {
  // Three events of one run on the chain: two jumps from different x^- and their consistent
  // derivatives, all through one Workspace, against the same solves each with its own.
  auto calls = std::make_shared<long>(0);
  const testing::TestModel chain = make_chain(true, calls);
  Workspace workspace(detail::pattern_of(chain.structure));
  JumpProblem shared = chain.problem();
  shared.workspace = &workspace;
  shared.tolerance = 1e-12;
  JumpProblem fresh = chain.problem();
  fresh.tolerance = 1e-12;

  std::vector<double> x_minus = chain_start();
  for (int event = 0; event < 2; ++event) {
    CAPTURE(event);
    Workspace own(detail::pattern_of(chain.structure));  // a fresh one for each solve
    fresh.workspace = &own;
    const JumpOutcome a = solve_jump(shared, x_minus);
    const JumpOutcome b = solve_jump(fresh, x_minus);
    REQUIRE(a.status == SolveStatus::kOk);
    REQUIRE(b.status == SolveStatus::kOk);
    // Both stop below 1e-12 at the same root of a well-conditioned system (the re-used pivot
    // order is accepted only with a pivot growth within 1e2 of a fresh one): 1e-10 covers it.
    for (std::size_t j = 0; j < x_minus.size(); ++j) {
      CHECK(a.x_plus[j] == doctest::Approx(b.x_plus[j]).epsilon(1e-10));
    }
    const DerivativeOutcome da = consistent_derivatives(shared, a.x_plus);
    Workspace own_again(detail::pattern_of(chain.structure));
    fresh.workspace = &own_again;
    const DerivativeOutcome db = consistent_derivatives(fresh, b.x_plus);
    REQUIRE(da.status == SolveStatus::kOk);
    REQUIRE(db.status == SolveStatus::kOk);
    for (std::size_t j = 0; j < x_minus.size(); ++j) {
      CHECK(da.der_x[j] == doctest::Approx(db.der_x[j]).epsilon(1e-8));
    }
    // The next event starts from a state moved away from the constraints again.
    x_minus = a.x_plus;
    for (std::size_t k = 0; k < kPairs; ++k) x_minus[2 * k] += 0.05;
  }
  // One symbolic analysis for the whole run; the later Newton matrices (same pattern, same
  // row kinds) are refactorized in the first pivot order.
  const linalg::FactorizationCounts& counts = workspace.square_solver().counts();
  CHECK(counts.symbolic_analyses == 1);
  CHECK(counts.refactorizations > 0);
  CHECK(counts.fresh_factorizations >= 1);
  // J over its non-zeros is a pattern of its own, in a solver of its own: analysed once too.
  CHECK(workspace.derivative_solver().counts().symbolic_analyses == 1);
}

TEST_CASE("a re-used pivot order never hides a singular matrix") {
  // After a regular chain was factorized, the chain whose last link copies the previous one
  // (same pattern declared, same row kinds) must still be found singular: the verdict comes
  // from a factorization with pivot search, not from the re-used order.
  auto calls = std::make_shared<long>(0);
  const testing::TestModel singular = make_chain(true, calls, kPairs, LastLink::kCopyOfPrevious);
  testing::TestModel regular = make_chain(false, calls);
  regular.structure.sparsity = singular.structure.sparsity;  // one pattern for both
  Workspace workspace(detail::pattern_of(singular.structure));
  JumpProblem first = regular.problem();
  first.workspace = &workspace;
  REQUIRE(solve_jump(first, chain_start()).status == SolveStatus::kOk);
  JumpProblem second = singular.problem();
  second.workspace = &workspace;
  const JumpOutcome out = solve_jump(second, chain_start());
  CHECK(out.status == SolveStatus::kSingular);
  CHECK(workspace.square_solver().counts().symbolic_analyses == 1);
}

}  // namespace
}  // namespace hdae::reinit

TEST_CASE("the sparse rank analysis of a full-rank matrix finds no dependent rows") {
  // A bidiagonal 600 x 600 matrix (2 on the diagonal, 1 below it) has determinant 2^600 != 0:
  // full rank, so nothing is dependent or undetermined (above 500 unknowns the analysis takes
  // the sparse QR path).
  const Eigen::Index n = 600;
  std::vector<Eigen::Triplet<double>> entries;
  for (Eigen::Index i = 0; i < n; ++i) {
    entries.emplace_back(i, i, 2.0);
    if (i > 0) entries.emplace_back(i, i - 1, 1.0);
  }
  hdae::linalg::JacobianMatrix a;
  a.is_sparse = true;
  a.sparse.resize(n, n);
  a.sparse.setFromTriplets(entries.begin(), entries.end());
  const hdae::linalg::RankDeficiency d =
      hdae::linalg::analyse_rank(a, hdae::linalg::WeakestDirection::kOnlyIfRankDeficient);
  CHECK(d.rank == n);
  CHECK(d.dependent_rows.empty());
  CHECK(d.undetermined_columns.empty());
}
