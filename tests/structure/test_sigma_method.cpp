// Pryce's Sigma-method on hand-made signature matrices (hdae/structure.hpp): transversal,
// offsets, index, and the parts named when there is no transversal.
#include <algorithm>
#include <numeric>
#include <random>

#include <doctest/doctest.h>

#include "hdae/structure.hpp"
#include "structure/signature_matrices.hpp"

using namespace hdae;
using hdae::test::matrix;

namespace {

/// Largest transversal value by trying every permutation (an independent, obvious answer);
/// SignatureMatrix::kAbsent when there is no transversal.
int brute_force_value(const SignatureMatrix& s) {
  std::vector<std::size_t> p(s.n);
  std::iota(p.begin(), p.end(), 0);
  int best = SignatureMatrix::kAbsent;
  do {
    int value = 0;
    bool complete = true;
    for (std::size_t i = 0; i < s.n && complete; ++i) {
      const int sigma = s.sigma(i, p[i]);
      complete = sigma != SignatureMatrix::kAbsent;
      value += complete ? sigma : 0;
    }
    if (complete) best = std::max(best, value);
  } while (std::next_permutation(p.begin(), p.end()));
  return best;
}

}  // namespace

TEST_CASE("the Sigma-method gives Pryce's offsets for the second-order pendulum") {
  // Pryce (BIT 2001), the pendulum example: rows x'' + x lambda = 0, y'' + y lambda - g = 0,
  // x^2 + y^2 - L^2 = 0 in the unknowns (x, y, lambda). Published: c = (0, 0, 2),
  // d = (2, 2, 0), structural index 3, two degrees of freedom (4 - 2).
  const SignatureMatrix s =
      matrix(3, {{0, 0, 2}, {0, 2, 0}, {1, 1, 2}, {1, 2, 0}, {2, 0, 0}, {2, 1, 0}});
  const SigmaMethodResult r = sigma_method(s);
  REQUIRE(r.has_transversal);
  CHECK(r.value == 2);
  CHECK(r.c == std::vector<int>{0, 0, 2});
  CHECK(r.d == std::vector<int>{2, 2, 0});
  CHECK(structural_index(r.c, r.d) == 3);
}

TEST_CASE("the structural index adds one only when some variable is algebraic (d_j = 0)") {
  // An implicit ODE (c = 0, all d = 1) has index 0; a semi-explicit index-1 system (c = 0,
  // an algebraic variable) index 1; a constraint differentiated once with every variable
  // differentiated (the engaged clutch) index 1.
  CHECK(structural_index(std::vector<int>{0, 0}, std::vector<int>{1, 1}) == 0);
  CHECK(structural_index(std::vector<int>{0, 0}, std::vector<int>{1, 0}) == 1);
  CHECK(structural_index(std::vector<int>{0, 0, 1}, std::vector<int>{1, 1, 1}) == 1);
}

TEST_CASE("the highest-value transversal matches an exhaustive search on random matrices") {
  // 300 random sparse matrices up to 7 x 7 with sigma in {0, 1, 2}; each with a transversal
  // gets offsets checked against Pryce's conditions: d_j - c_i >= sigma_ij everywhere,
  // equality on the transversal, and the smallest such (some c_i is 0 in every connected
  // problem; here: every offset is >= 0 and min c = 0).
  std::mt19937 rng(7);
  int checked = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t n = 1 + rng() % 7;
    std::vector<SignatureEntry> entries;
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < n; ++j) {
        if (rng() % 3 == 0) entries.push_back({i, j, static_cast<int>(rng() % 3)});
      }
    }
    const SignatureMatrix s = matrix(n, entries);
    const int expected = brute_force_value(s);
    const SigmaMethodResult r = sigma_method(s);
    REQUIRE(r.has_transversal == (expected != SignatureMatrix::kAbsent));
    if (!r.has_transversal) continue;
    ++checked;
    CHECK(r.value == expected);
    for (const SignatureEntry& e : s.entries) {
      CHECK(r.d[e.col] - r.c[e.row] >= e.sigma);
      if (r.transversal[e.row] == e.col) CHECK(r.d[e.col] - r.c[e.row] == e.sigma);
    }
    CHECK(*std::min_element(r.c.begin(), r.c.end()) == 0);
  }
  CHECK(checked > 30);
}

TEST_CASE("a matrix without transversal names its over- and under-determined parts") {
  // Rows 0 and 1 contain only column 0; row 2 contains columns 1 and 2. Rows {0, 1} compete
  // for {0} (over-determined), columns {1, 2} share row {2} (under-determined).
  const SignatureMatrix s = matrix(3, {{0, 0, 0}, {1, 0, 1}, {2, 1, 0}, {2, 2, 0}});
  const SigmaMethodResult r = sigma_method(s);
  CHECK_FALSE(r.has_transversal);
  CHECK(r.overdetermined_rows == std::vector<std::size_t>{0, 1});
  CHECK(r.overdetermined_cols == std::vector<std::size_t>{0});
  CHECK(r.underdetermined_rows == std::vector<std::size_t>{2});
  CHECK(r.underdetermined_cols == std::vector<std::size_t>{1, 2});
}

TEST_CASE("a long augmenting path and a long offset iteration are handled") {
  // n = 2000: row i < n-1 holds x_i' (sigma 1) and x_{i+1} (sigma 0); the last row holds only
  // x_0. The only transversal is row i -> column i+1, last row -> column 0 (value 0); the
  // first matching pass takes the diagonal, so the last row needs an augmenting path through
  // all n rows. Offsets by hand: d_{i+1} = c_i on the transversal and d_i - c_i >= 1 give
  // c_{i-1} >= c_i + 1, so c_i = n - 2 - i for i < n - 1 and c_{n-1} = d_0 = c_0 + 1 = n - 1;
  // d_{n-1} = c_{n-2} = 0 makes x_{n-1} algebraic: index (n - 1) + 1 = n.
  const std::size_t n = 2000;
  std::vector<SignatureEntry> entries;
  for (std::size_t i = 0; i + 1 < n; ++i) {
    entries.push_back({i, i, 1});
    entries.push_back({i, i + 1, 0});
  }
  entries.push_back({n - 1, 0, 0});
  const SigmaMethodResult r = sigma_method(matrix(n, entries));
  REQUIRE(r.has_transversal);
  CHECK(r.value == 0);
  CHECK(r.transversal[0] == 1);
  CHECK(r.transversal[n - 1] == 0);
  CHECK(r.c[0] == static_cast<int>(n) - 2);
  CHECK(r.c[n - 2] == 0);
  CHECK(r.c[n - 1] == static_cast<int>(n) - 1);
  CHECK(structural_index(r.c, r.d) == static_cast<int>(n));
}
