#include "simulator/explicit_form.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

namespace hdae::detail {
namespace {

/// A difference of two residuals within this many units of round-off of their size is zero.
constexpr double kRoundOffs = 1e3;
/// The second point's offset from the first, relative to each value's size: far above
/// round-off, close enough for any model that evaluates at the first.
constexpr double kOffset = 1e-6;
/// Coefficients that differ by more than this (relative) at the second point depend on (t, x).
constexpr double kCoefficientChange = 1e-9;

/// F(t, x, der) for the probes, with the crossing values computed.
class Probe {
 public:
  Probe(ModelCalls& model, std::size_t n) : model_(model), r_(n, 0.0) {}

  std::span<const double> residual(double t, std::span<const double> x,
                                   std::span<const double> der) {
    model_.evaluate(t, x, der, r_, {}, EvaluationPhase::kContinuous);
    return r_;
  }

 private:
  ModelCalls& model_;
  std::vector<double> r_;
};

bool is_zero(double difference, double a, double b) {
  return std::abs(difference) <=
         kRoundOffs * std::numeric_limits<double>::epsilon() * (std::abs(a) + std::abs(b));
}

/// The entries of M at (t, x) as (row, column, value), scaled by the probe steps s.
struct Entry {
  std::size_t row;
  std::size_t col;
  double value;
};

std::vector<Entry> columns_of_m(Probe& probe, double t, std::span<const double> x,
                                std::span<const double> s,
                                const sparsity::SparsityPattern* pattern) {
  const std::size_t n = x.size();
  std::vector<double> der(n, 0.0);
  const auto at_zero = probe.residual(t, x, der);
  const std::vector<double> r0(at_zero.begin(), at_zero.end());
  std::vector<Entry> entries;
  auto probe_columns = [&](std::span<const sparsity::Index> columns) {
    for (const auto j : columns) der[j] = s[j];
    const auto r = probe.residual(t, x, der);
    for (const auto j : columns) {
      der[j] = 0.0;
      auto take = [&](std::size_t i) {
        const double d = r[i] - r0[i];
        if (is_zero(d, r[i], r0[i])) return;
        // A coefficient of +-1 within the difference's round-off is +-1 (der(x) - f rounds f
        // twice): f is then -F or F itself, without a division.
        double value = d / s[j];
        if (is_zero(d - s[j], r[i], r0[i])) value = 1.0;
        if (is_zero(d + s[j], r[i], r0[i])) value = -1.0;
        entries.push_back({i, j, value});
      };
      if (pattern == nullptr) {
        for (std::size_t i = 0; i < n; ++i) take(i);
      } else {
        for (auto k = pattern->col_start[j]; k < pattern->col_start[j + 1]; ++k) {
          take(pattern->row_index[k]);
        }
      }
    }
  };
  if (pattern != nullptr) {
    for (const auto& colour : pattern->columns_of_color) probe_columns(colour);
  } else {
    for (sparsity::Index j = 0; j < n; ++j) probe_columns(std::span(&j, 1));
  }
  return entries;
}

/// The form from M's entries, or why M is not a scaled permutation.
std::optional<ExplicitForm> read_entries(const ModelStructure& s, const std::vector<Entry>& m,
                                         double t, std::string* why) {
  const std::size_t n = s.num_unknowns();
  ExplicitForm form;
  form.variable_of_row.assign(n, n);
  form.coefficient.assign(n, 0.0);
  std::vector<std::size_t> rows_of_variable(n, 0);
  for (const Entry& e : m) {
    if (form.variable_of_row[e.row] != n) {
      *why = fmt::format("equation '{}' holds the derivatives of '{}' and '{}' at t = {}",
                         s.equations.name(e.row), s.variables.name(form.variable_of_row[e.row]),
                         s.variables.name(e.col), t);
      return std::nullopt;
    }
    form.variable_of_row[e.row] = e.col;
    form.coefficient[e.row] = e.value;
    ++rows_of_variable[e.col];
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (form.variable_of_row[i] == n) {
      *why = fmt::format("equation '{}' holds no derivative at t = {}", s.equations.name(i), t);
      return std::nullopt;
    }
    if (rows_of_variable[i] != 1) {
      *why = fmt::format("the derivative of '{}' appears in {} equations at t = {}",
                         s.variables.name(i), rows_of_variable[i], t);
      return std::nullopt;
    }
  }
  return form;
}

/// Whether the coefficients are those of form at a second point, every value moved by kOffset
/// of its size.
bool same_coefficients(Probe& probe, const ModelStructure& s, double t, std::span<const double> x,
                       std::span<const double> step, const ExplicitForm& form) {
  const std::size_t n = x.size();
  std::vector<double> x2(x.begin(), x.end());
  for (std::size_t j = 0; j < n; ++j) {
    x2[j] += kOffset * std::max(std::abs(x[j]), s.variables.declared(j).nominal);
  }
  const double t2 = t + kOffset * std::max(std::abs(t), 1.0);
  const std::vector<double> zero(n, 0.0);
  const auto at_zero = probe.residual(t2, x2, zero);
  const std::vector<double> r0(at_zero.begin(), at_zero.end());
  const auto r1 = probe.residual(t2, x2, step);
  for (std::size_t i = 0; i < n; ++i) {
    const double m2 = (r1[i] - r0[i]) / step[form.variable_of_row[i]];
    const double m1 = form.coefficient[i];
    if (std::abs(m2 - m1) > kCoefficientChange * std::abs(m1)) return false;
  }
  return true;
}

/// Whether a crossing value at (t, x) changes when der_x does: the same point evaluates to
/// the same values bit for bit, so any difference is a dependence.
bool crossings_read_derivatives(Probe& probe, CrossingTable& crossings, double t,
                                std::span<const double> x, std::span<const double> step) {
  const std::vector<double> zero(x.size(), 0.0);
  probe.residual(t, x, zero);
  const auto z0 = crossings.z();
  const std::vector<double> at_zero(z0.begin(), z0.end());
  probe.residual(t, x, step);
  const auto z = crossings.z();
  return !std::equal(z.begin(), z.end(), at_zero.begin());
}

}  // namespace

std::optional<ExplicitForm> find_explicit_form(ModelCalls& model, CrossingTable& crossings,
                                               double t, std::span<const double> x,
                                               std::span<const double> der_x,
                                               std::span<const RowKind> row_kinds,
                                               const sparsity::SparsityPattern* pattern,
                                               std::string* why) {
  const ModelStructure& s = model.structure();
  const std::size_t n = x.size();
  for (std::size_t i = 0; i < row_kinds.size(); ++i) {
    if (row_kinds[i] == RowKind::kConstraint) {
      *why = fmt::format("equation '{}' is a constraint at t = {}", s.equations.name(i), t);
      return std::nullopt;
    }
  }
  // Probe steps of the size of the derivatives, so that M's entries stand out of F's
  // round-off as the solution's own terms do.
  std::vector<double> step(n);
  for (std::size_t j = 0; j < n; ++j) step[j] = std::max(1.0, std::abs(der_x[j]));
  Probe probe(model, n);
  std::optional<ExplicitForm> form =
      read_entries(s, columns_of_m(probe, t, x, step, pattern), t, why);
  if (!form) return form;

  form->constant_coefficients = same_coefficients(probe, s, t, x, step, *form);
  form->crossings_read_derivatives = crossings_read_derivatives(probe, crossings, t, x, step);
  return form;
}

}  // namespace hdae::detail
