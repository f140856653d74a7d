// Pryce's Sigma-method on long chains and larger random matrices (hdae/structure.hpp): the
// highest-value transversal and the smallest offsets where a search per row, or a sweep of
// Pryce's iteration per level of index, would cost time quadratic in the size.
#include <algorithm>
#include <random>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include "hdae/structure.hpp"
#include "structure/signature_matrices.hpp"

using namespace hdae;
using hdae::test::matrix;

namespace {

/// Pryce's fixed-point iteration as his paper states it (BIT 2001, section 3): from c = 0,
/// d_j = max_i (sigma_ij + c_i), then c_i = d_T(i) - sigma_iT(i), until nothing changes. Its
/// limit is the same for every highest-value transversal T.
std::pair<std::vector<int>, std::vector<int>> pryce_iteration(
    const SignatureMatrix& s, const std::vector<std::size_t>& transversal) {
  std::vector<int> c(s.n, 0), d(s.n, 0);
  for (bool changed = true; changed;) {
    std::fill(d.begin(), d.end(), 0);
    for (const SignatureEntry& e : s.entries) d[e.col] = std::max(d[e.col], e.sigma + c[e.row]);
    changed = false;
    for (const SignatureEntry& e : s.entries) {
      if (transversal[e.row] == e.col && d[e.col] - e.sigma != c[e.row]) {
        c[e.row] = d[e.col] - e.sigma;
        changed = true;
      }
    }
  }
  return {c, d};
}

}  // namespace

TEST_CASE("the rod chain's signature at 3 10^4 unknowns has value 2 and offsets 2, 1, 0") {
  // The chain of bench/models/rod_chain.hpp with N = 10^4 masses, built directly: rows
  // der(x_k) = v_k (x_k sigma 1, v_k sigma 0), m der(v_k) = F_k - F_(k-1) (v_k sigma 1, the
  // forces sigma 0, x_1 sigma 0 in the first), 0 = x_(k+1) - x_k - L (sigma 0). Value: the
  // N - 1 force columns occur only in momentum rows, so at most one momentum row can take its
  // der(v); the N velocity columns then leave at most one kinematic row its der(x); the
  // transversal that takes both has value 2. Offsets: Pryce's for a position constraint, each
  // rod row differentiated twice (c = 2), each kinematic row once (c = 1), no momentum row
  // (c = 0); x up to its second derivative (d = 2), v its first, F algebraic: sum d - sum c =
  // 3N - (3N - 2) = 2 = the value, index 2 + 1 = 3. The cheapest start matches every x_k to
  // its kinematic row and every v_k to its momentum row and leaves all N - 1 rod rows
  // unmatched; a search from each in turn swept back through the rods matched before it.
  const std::size_t masses = 10000;
  const std::size_t n = 3 * masses - 1;
  const auto kinematic = [](std::size_t k) { return 2 * k; };
  const auto momentum = [](std::size_t k) { return 2 * k + 1; };
  const auto rod = [&](std::size_t k) { return 2 * masses + k; };
  const auto x = [](std::size_t k) { return 2 * k; };
  const auto v = [](std::size_t k) { return 2 * k + 1; };
  const auto force = [&](std::size_t k) { return 2 * masses + k; };
  std::vector<SignatureEntry> entries{{momentum(0), x(0), 0}};
  for (std::size_t k = 0; k < masses; ++k) {
    entries.push_back({kinematic(k), x(k), 1});
    entries.push_back({kinematic(k), v(k), 0});
    entries.push_back({momentum(k), v(k), 1});
    if (k + 1 < masses) {
      entries.push_back({momentum(k), force(k), 0});
      entries.push_back({rod(k), x(k), 0});
      entries.push_back({rod(k), x(k + 1), 0});
    }
    if (k > 0) entries.push_back({momentum(k), force(k - 1), 0});
  }
  const SigmaMethodResult r = sigma_method(matrix(n, entries));
  REQUIRE(r.has_transversal);
  CHECK(r.value == 2);
  for (std::size_t k = 0; k < masses; ++k) {
    CHECK(r.c[kinematic(k)] == 1);
    CHECK(r.c[momentum(k)] == 0);
    CHECK(r.d[x(k)] == 2);
    CHECK(r.d[v(k)] == 1);
    if (k + 1 < masses) CHECK(r.c[rod(k)] == 2);
    if (k + 1 < masses) CHECK(r.d[force(k)] == 0);
  }
  CHECK(structural_index(r.c, r.d) == 3);
}

TEST_CASE("chains whose augmenting paths all cost differently get value 0 and their offsets") {
  // Blocks of sizes m = 2 .. 101 on the diagonal, each the chain of "a long augmenting path"
  // in test_sigma_method.cpp: row i < m-1 holds x_i' (sigma 1) and x_(i+1) (sigma 0), the
  // last row only x_0. Each block's only transversal is row i -> i+1, last row -> 0 (value
  // 0), with c_i = m - 2 - i for i < m - 1 and c_(m-1) = m - 1. The cheapest start takes
  // each block's diagonal, so block m needs an augmenting path that gives up m - 1 units of
  // value: a hundred paths of a hundred different costs.
  std::vector<SignatureEntry> entries;
  std::vector<int> expected_c;
  std::size_t first = 0;
  for (std::size_t m = 2; m <= 101; first += m, ++m) {
    for (std::size_t i = 0; i + 1 < m; ++i) {
      entries.push_back({first + i, first + i, 1});
      entries.push_back({first + i, first + i + 1, 0});
      expected_c.push_back(static_cast<int>(m - 2 - i));
    }
    entries.push_back({first + m - 1, first, 0});
    expected_c.push_back(static_cast<int>(m - 1));
  }
  const SigmaMethodResult r = sigma_method(matrix(first, entries));
  REQUIRE(r.has_transversal);
  CHECK(r.value == 0);
  CHECK(r.c == expected_c);
  CHECK(structural_index(r.c, r.d) == 101);  // the largest block: c = 100, x_100 algebraic
}

TEST_CASE("offsets equal Pryce's iteration and prove the value on random banded matrices") {
  // 40 random matrices of 200 rows, entries near the diagonal with sigma in {0, 1, 2} and a
  // diagonal entry in every row (so that a transversal exists). Checks: Pryce's conditions
  // (d_j - c_i >= sigma_ij, equality on the transversal), which make sum d - sum c an upper
  // bound of every transversal's value (sum over a transversal of d_j - c_i is always
  // sum d - sum c), reached by the one found: so it has the highest value; and the offsets
  // are those of Pryce's own iteration.
  std::mt19937 rng(11);
  for (int trial = 0; trial < 40; ++trial) {
    const std::size_t n = 200;
    std::vector<SignatureEntry> entries;
    for (std::size_t i = 0; i < n; ++i) {
      entries.push_back({i, i, static_cast<int>(rng() % 3)});
      for (int k = 0; k < 3; ++k) {
        const std::size_t j = (i + n - 4 + rng() % 9) % n;
        entries.push_back({i, j, static_cast<int>(rng() % 3)});
      }
    }
    const SignatureMatrix s = matrix(n, entries);
    const SigmaMethodResult r = sigma_method(s);
    REQUIRE(r.has_transversal);
    long long bound = 0;
    for (std::size_t k = 0; k < n; ++k) bound += r.d[k] - r.c[k];
    CHECK(r.value == bound);
    for (const SignatureEntry& e : s.entries) {
      CHECK(r.d[e.col] - r.c[e.row] >= e.sigma);
      if (r.transversal[e.row] == e.col) CHECK(r.d[e.col] - r.c[e.row] == e.sigma);
    }
    const auto [c, d] = pryce_iteration(s, r.transversal);
    CHECK(r.c == c);
    CHECK(r.d == d);
  }
}
