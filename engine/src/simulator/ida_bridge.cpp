#include "simulator/ida_bridge.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace hdae::detail {
namespace {

/// The values one by one, for the rare sum that is not finite (all_finite); out of line, so
/// that the sum inlines into every residual call.
[[gnu::noinline]] bool each_finite(std::span<const double> values) {
  return std::all_of(values.begin(), values.end(), [](double x) { return std::isfinite(x); });
}

/// True when every value is finite. A NaN or an infinity makes the sum of the values
/// non-finite, and four partial sums let the compiler keep them in vector registers (two
/// instructions per value, where a test per value costs a compare and a branch each). Only a
/// non-finite sum, which finite values of magnitude near 1e308 can also give, is checked value
/// by value.
inline bool all_finite(std::span<const double> values) {
  const double* v = values.data();
  const std::size_t n = values.size();
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    s0 += v[i];
    s1 += v[i + 1];
    s2 += v[i + 2];
    s3 += v[i + 3];
  }
  for (; i < n; ++i) s0 += v[i];
  return std::isfinite((s0 + s1) + (s2 + s3)) || each_finite(values);
}

/// The model's Jacobian entries (Eq, Var) as IDA's (row, column).
class ModelEntries final : public JacobianEntries {
 public:
  explicit ModelEntries(sundials::MatrixEntries& out) : out_(out) {}
  void add(Eq row, Var col, double value) override { out_.add(row.index, col.index, value); }

 private:
  sundials::MatrixEntries& out_;
};

}  // namespace

int IdaBridge::residual(double t, std::span<const double> y, std::span<const double> yp,
                        std::span<double> r) {
  if (stop_.requested()) return -1;  // fatal for IDA; the simulator reports why
  // RecoverableError (hdae/errors.hpp): IDA retries with a smaller step, as for a NaN.
  if (!model_.evaluate_recoverable(t, y, yp, r)) return 1;
  // The crossing values come from the same evaluation; a non-finite one would reach IDA's
  // root finder at the next step, so it is treated like a non-finite residual.
  if (all_finite(r) && (crossings_.size() == 0 || all_finite(crossings_.z()))) return 0;
  // Recoverable: IDA retries with a smaller step. Remember where, for the failure message.
  note_non_finite(t, y, yp, r);
  return 1;
}

int IdaBridge::roots(double t, std::span<const double> y, std::span<const double> yp,
                     std::span<double> g) {
  // Only the crossing values are read here; a model may skip its residuals (zeroed so that a
  // failure report does not read those of another point).
  std::fill(scratch_r_.begin(), scratch_r_.end(), 0.0);
  model_.evaluate(t, y, yp, scratch_r_, {}, EvaluationPhase::kContinuous, CrossingValues::kUsed,
                  ResidualValues::kUnused);
  if (align_at_ && t == *align_at_) {
    // IDA's first call after a restart is at the restart point (its initial root check).
    crossings_.align_with_booleans();
    align_at_.reset();
  }
  const auto z = crossings_.z();
  if (!all_finite(z)) {
    // IDA has no recoverable failure for root functions: the run ends with a solver failure
    // whose message names the crossings (non_finite_report()).
    note_non_finite(t, y, yp, scratch_r_);
    return -1;
  }
  std::copy(z.begin(), z.end(), g.begin());
  return 0;
}

int IdaBridge::jacobian(double t, double cj, std::span<const double> y, std::span<const double> yp,
                        sundials::MatrixEntries& entries) {
  ModelEntries model_entries(entries);
  // RecoverableError: IDA retries with a smaller step, as after a residual's.
  return model_.jacobian(t, cj, y, yp, model_entries) ? 0 : 1;
}

void IdaBridge::note_non_finite(double t, std::span<const double> y, std::span<const double> yp,
                                std::span<const double> r) {
  non_finite_t_ = t;
  non_finite_rows_.clear();
  non_finite_crossings_.clear();
  non_finite_vars_.clear();
  for (std::size_t i = 0; i < r.size(); ++i) {
    if (!std::isfinite(r[i])) non_finite_rows_.push_back(i);
    if (!std::isfinite(y[i]) || !std::isfinite(yp[i])) non_finite_vars_.push_back(i);
  }
  const auto z = crossings_.z();
  for (std::size_t k = 0; k < z.size(); ++k) {
    if (!std::isfinite(z[k])) non_finite_crossings_.push_back(k);
  }
}

std::string IdaBridge::non_finite_report() const {
  if (non_finite_rows_.empty() && non_finite_crossings_.empty()) return {};
  const ModelStructure& s = model_.structure();
  std::vector<std::string> parts;
  if (!non_finite_rows_.empty()) {
    std::vector<std::string> equations;
    for (const std::size_t i : non_finite_rows_) equations.push_back(s.equations.name(i));
    parts.push_back(fmt::format("equations {{{}}}", fmt::join(equations, ", ")));
  }
  if (!non_finite_crossings_.empty()) {
    std::vector<std::string> crossings;
    for (const std::size_t k : non_finite_crossings_) {
      crossings.push_back(fmt::format("'{}'", s.crossings[k].name));
    }
    parts.push_back(fmt::format("crossings {{{}}}", fmt::join(crossings, ", ")));
  }
  std::string report = fmt::format("last {} not finite at t = {}: {}",
                                   non_finite_rows_.empty() ? "crossing value" : "residual",
                                   non_finite_t_, fmt::join(parts, "; "));
  if (!non_finite_vars_.empty()) {
    std::vector<std::string> variables;
    for (const std::size_t i : non_finite_vars_) variables.push_back(s.variables.name(i));
    report += fmt::format("; not finite: variables {{{}}}", fmt::join(variables, ", "));
  }
  return report;
}

}  // namespace hdae::detail
