#include "structure/signature_detection.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "hdae/errors.hpp"
#include "structure/probe_groups.hpp"

namespace hdae::structure {

std::string model_prefix(const ModelStructure& s) { return fmt::format("model '{}': ", s.name); }

void check_sizes(const ModelStructure& s, std::span<const double> x, std::span<const double> der_x,
                 std::span<const RowKind> kinds, const char* caller) {
  s.validate();  // a non-square model or a bad pattern entry, named by the structure's check
  const std::size_t n = s.num_unknowns();
  const auto check = [&](std::size_t size, const char* what) {
    if (size != n) {
      throw ModelError(fmt::format("{}{}: {} has {} entries, the model has {} unknowns",
                                   model_prefix(s), caller, what, size, n));
    }
  };
  check(x.size(), "x");
  check(der_x.size(), "der_x");
  if (!kinds.empty()) check(kinds.size(), "row_kinds");
}

namespace {

/// Relative step of a probe: large against rounding (a row's noise is ~1e-16 of its largest
/// term, so a genuine dependence changes it ~1e10 times more than rounding does), small
/// against the spread of the random points.
constexpr double kProbeStep = 1e-6;
/// Every group is probed a second time with this share of the step. A genuine dependence
/// changes the row in proportion to the step (or faster, where it is quadratic at the point);
/// rounding changes it by about the same amount whatever the step. So a change counts only
/// when the smaller step changes the row by at most kProportional of the full step's change:
/// at most twice the proportional share, far below the 1 that rounding gives. This tells
/// rounding from a dependence whatever the sizes of the row's other terms, where a threshold
/// relative to the row's largest change cannot: a stiffness of 4e7 beside a mass of 1e-2 makes
/// the inertial term 1e-9 of the row's largest change, while rounding is still 1e4 times
/// smaller than the inertial term.
constexpr double kSmallStep = 1e-2;
constexpr double kProportional = 2.0 * kSmallStep;

/// The unknown's scale: its magnitude or nominal value, whichever is larger.
double scale_of(double value, double nominal) { return std::max(std::abs(value), nominal); }

/// One random point near (t, x, der_x).
struct Point {
  double t = 0.0;
  std::vector<double> x, der_x;
};

Point random_point(const ModelStructure& s, double t, std::span<const double> x,
                   std::span<const double> der_x, double spread, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  // Time moves too, forward only (a model may be defined from t on): a coefficient that
  // depends on time alone and vanishes at t (r sin(w t) at t = 0) would hide an entry at
  // every point of this time.
  Point p{t + spread * std::abs(u(rng)) * std::max(std::abs(t), 1.0),
          {x.begin(), x.end()},
          {der_x.begin(), der_x.end()}};
  for (std::size_t j = 0; j < x.size(); ++j) {
    const double nominal = s.variables.nominal(j);
    p.x[j] += spread * u(rng) * scale_of(x[j], nominal);
    p.der_x[j] += spread * u(rng) * scale_of(der_x[j], nominal);
  }
  return p;
}

/// Throws ModelError naming the first rows whose residual is not finite.
void require_finite(const ModelStructure& s, double t, std::span<const double> r,
                    const std::string& where) {
  std::vector<std::string> bad;
  for (std::size_t i = 0; i < r.size(); ++i) {
    if (!std::isfinite(r[i])) bad.push_back("'" + s.equations.name(i) + "'");
  }
  if (bad.empty()) return;
  throw ModelError(
      fmt::format("{}structure detection: residual of equation {} is not finite "
                  "at t = {} {} (probe points lie within the relative spread "
                  "of SignatureDetection around the given point)",
                  model_prefix(s), bad.front(), t, where));
}

/// What the probes at one point saw: every changed row with the column and order the change
/// belongs to and its size, and the largest change of each model row (before corrections)
/// over all probes. One flat list: a list per row and order cost more in allocations than the
/// probes themselves at 10^5 unknowns.
struct ProbeRecord {
  struct Change {
    std::size_t row = 0, col = 0;
    int order = 0;
    double size = 0.0;        ///< at the full step
    double small_size = 0.0;  ///< at kSmallStep of it
    /// The change follows the step: a dependence, not rounding.
    [[nodiscard]] bool proportional() const {
      return size > 0.0 && small_size <= kProportional * size;
    }
  };
  explicit ProbeRecord(std::size_t n) : raw_largest(n, 0.0) {}
  std::vector<Change> changes;
  std::vector<double> raw_largest;
};

/// Base residuals of the system (r) and of the model (raw) at one point.
struct Base {
  std::vector<double> r, raw;
};

/// Moves the group's unknowns by `share` of their probe steps (share 0: back where they were).
void move_group(const ModelStructure& s, const std::vector<std::size_t>& group,
                std::span<const double> saved, std::vector<double>& v, double share) {
  for (std::size_t k = 0; k < group.size(); ++k) {
    const std::size_t j = group[k];
    const double step = kProbeStep * scale_of(saved[k], s.variables.nominal(j));
    v[j] = saved[k] + share * step * (saved[k] < 0 ? -1.0 : 1.0);
  }
}

/// Perturbs x (order 0) or der_x (order 1) group by group at point p (at its time; t, the
/// analysis time, names the point in messages), at the full step and at
/// kSmallStep of it, and records every row that changed, with the column the change belongs
/// to.
void probe(const SystemResidual& f, const ProbeGroups& groups, double t, Point& p, int order,
           const Base& base, ProbeRecord& record) {
  const ModelStructure& s = f.structure();
  std::vector<double> r(f.size()), raw(f.size()), small(f.size()), small_raw(f.size());
  std::vector<double>& v = order == 0 ? p.x : p.der_x;
  std::vector<double> saved;
  for (std::size_t g = 0; g < groups.groups.size(); ++g) {
    const std::vector<std::size_t>& group = groups.groups[g];
    saved.resize(group.size());  // the group's values only: a copy of all of v per group was
    for (std::size_t k = 0; k < group.size(); ++k) saved[k] = v[group[k]];  // quadratic
    move_group(s, group, saved, v, 1.0);
    f.evaluate(p.t, p.x, p.der_x, r, raw);
    move_group(s, group, saved, v, kSmallStep);
    f.evaluate(p.t, p.x, p.der_x, small, small_raw);
    for (std::size_t k = 0; k < group.size(); ++k) v[group[k]] = saved[k];
    require_finite(s, t, raw, "when " + groups.names(s, g) + " is perturbed");
    require_finite(s, t, small_raw, "when " + groups.names(s, g) + " is perturbed");
    for (std::size_t k = 0; k < raw.size(); ++k) {
      record.raw_largest[k] = std::max(record.raw_largest[k], std::abs(raw[k] - base.raw[k]));
    }
    const std::vector<std::size_t> owner = groups.owners(g);
    for (std::size_t i = 0; i < r.size(); ++i) {
      if (r[i] == base.r[i] && small[i] == base.r[i]) continue;  // the row does not read it
      const std::size_t j = owner[i];
      if (j == groups.n) {
        throw ModelError(
            fmt::format("{}equation '{}' changes when {} {} perturbed, but the declared sparsity "
                        "pattern has none of them in that equation",
                        model_prefix(s), s.equations.name(i), groups.names(s, g),
                        groups.groups[g].size() == 1 ? "is" : "are"));
      }
      record.changes.push_back(
          {i, j, order, std::abs(r[i] - base.r[i]), std::abs(small[i] - base.r[i])});
    }
  }
}

/// Keeps the changes that follow the step and exceed threshold times the geometric mean of
/// their row's and their column's scale. A row's scale is its largest such change or, for a
/// combination of rows, the largest change of the model rows it combines (their terms are what
/// cancels); a column's (an x_j or a der(x_j)) is its largest such change. Judged against the
/// row alone, a stiff term (k x) would hide an inertial one (m der(v)) in the same row; against
/// both, an entry is negligible only where it is small beside its row and its column alike.
void keep_significant(const ProbeRecord& record, const SystemResidual& f, double threshold,
                      SignatureMatrix& out) {
  const auto support = f.raw_support();
  std::vector<double> row_scale(out.n, 0.0), column_scale(2 * out.n, 0.0);
  const auto column = [&](const ProbeRecord::Change& c) {
    return 2 * c.col + static_cast<std::size_t>(c.order);
  };
  for (const ProbeRecord::Change& c : record.changes) {
    if (!c.proportional()) continue;
    row_scale[c.row] = std::max(row_scale[c.row], c.size);
    column_scale[column(c)] = std::max(column_scale[column(c)], c.size);
  }
  for (std::size_t i = 0; i < out.n; ++i) {
    for (const std::size_t k : support[i]) {
      row_scale[i] = std::max(row_scale[i], record.raw_largest[k]);
    }
  }
  for (const ProbeRecord::Change& c : record.changes) {
    if (c.proportional() &&
        c.size > threshold * std::sqrt(row_scale[c.row] * column_scale[column(c)])) {
      out.entries.push_back({c.row, c.col, c.order});
    }
  }
}

}  // namespace

SignatureMatrix detect(const SystemResidual& f, double t, std::span<const double> x,
                       std::span<const double> der_x, const SignatureDetection& settings) {
  const ModelStructure& s = f.structure();
  const ProbeGroups groups = probe_groups(f);
  SignatureMatrix out;
  out.n = f.size();
  std::mt19937_64 rng(settings.seed);
  Base base{std::vector<double>(out.n), std::vector<double>(out.n)};
  for (int k = 1; k <= 2; ++k) {
    Point p = random_point(s, t, x, der_x, settings.spread, rng);
    f.evaluate(p.t, p.x, p.der_x, base.r, base.raw);
    require_finite(s, t, base.raw, fmt::format("at random point {} near the given one", k));
    // Steps are scaled so that every change is that of a nominal-sized step (the same
    // factor kProbeStep for all), so changes compare directly within a row.
    ProbeRecord record(out.n);
    probe(f, groups, t, p, 0, base, record);
    probe(f, groups, t, p, 1, base, record);
    keep_significant(record, f, settings.threshold, out);
  }
  out.normalize();
  return out;
}

}  // namespace hdae::structure

namespace hdae {

SignatureMatrix detect_signature(SimulationModel& model, double t, std::span<const double> x,
                                 std::span<const double> der_x,
                                 const SignatureDetection& settings) {
  structure::check_sizes(model.structure(), x, der_x, {}, "detect_signature");
  const structure::SystemResidual f(model);
  return structure::detect(f, t, x, der_x, settings);
}

}  // namespace hdae
