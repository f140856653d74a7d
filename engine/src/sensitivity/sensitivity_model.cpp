#include "sensitivity/sensitivity_model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "hdae/errors.hpp"

namespace hdae::detail {
namespace {

/// The quotients' step relative to the source's magnitude. The quotients are of fourth order,
/// so their truncation error is of the order of the step to the fourth (1e-12 relative for
/// smooth models), while the rounding of the model's terms, divided by the step, stays near
/// 1e-13 of them: smooth and small enough for the Newton solves at t0 and at events, whose
/// tolerance is a thousandth of rel_tol (a step near the cube root of the unit round-off,
/// best for a quotient of second order, leaves noise of 1e-11 there).
constexpr double kRelativeStep = 1e-3;

/// The tightest rel_tol of a sensitivity run. The Newton solves at t0 and at events hold the
/// rows to a thousandth of rel_tol, and the quotients' rounding (above) is a few 1e-13 of the
/// model's terms: a tighter tolerance asks the sensitivity rows for more than they carry.
constexpr double kMinSensitivityRelTol = 1e-9;

constexpr Stencil kCentral{{1, -1, 2, -2, 0}, {8.0 / 12, -8.0 / 12, -1.0 / 12, 1.0 / 12, 0.0}, 4};
constexpr Stencil kBackward{{0, -1, -2, -3, -4}, {25.0 / 12, -4.0, 3.0, -4.0 / 3, 1.0 / 4}, 5};
constexpr Stencil kForward{{0, 1, 2, 3, 4}, {-25.0 / 12, 4.0, -3.0, 4.0 / 3, -1.0 / 4}, 5};

std::string per(const std::string& unit, const std::string& by) {
  if (by.empty()) return unit;
  return (unit.empty() ? "1" : unit) + "/(" + by + ")";
}

}  // namespace

SensitivityModel::SensitivityModel(SimulationModel& model, const SimulationOptions& options)
    : model_(model), in_use_(model) {
  model_.reset();
  const ModelStructure& s = model_.structure();
  if (options.rel_tol < kMinSensitivityRelTol) {
    throw OptionError(
        fmt::format("SimulationOptions::rel_tol must be >= {:g} in a run with sensitivities (their "
                    "difference quotients carry no more digits), got {:g}",
                    kMinSensitivityRelTol, options.rel_tol));
  }
  sources_ = resolve_sensitivities(s, options.sensitivities);
  n_ = s.num_unknowns();
  outputs_ = s.outputs.size();
  for (std::size_t k = 0; k < sources_.size(); ++k) {
    const SensitivitySource& src = sources_[k];
    values_.push_back(src.kind == SensitivitySource::Kind::kParameter
                          ? s.parameters[src.index].value
                          : s.variables.start(src.index));
    steps_.push_back(kRelativeStep * src.scale);
    stencils_.push_back(make_stencil(k));
  }
  x_.resize(n_);
  der_x_.resize(n_);
  left_.resize(n_);
  r_.resize(n_);
  sums_.r.resize(n_);
  w_.resize(outputs_);
  w0_.resize(outputs_);
  sums_.w.resize(outputs_);
  build_structure(options.sensitivity_error_control);
  schedule_derivatives_.assign(s.time_events.size(), std::vector<double>(sources_.size(), 0.0));
}

Stencil SensitivityModel::make_stencil(std::size_t k) const {
  const SensitivitySource& src = sources_[k];
  if (src.kind != SensitivitySource::Kind::kParameter) return kCentral;
  const ParameterInfo& p = model_.structure().parameters[src.index];
  const double v = values_[k];
  const double h = steps_[k];
  if (v - 2.0 * h >= p.min && v + 2.0 * h <= p.max) return kCentral;
  if (v - 4.0 * h >= p.min) return kBackward;
  if (v + 4.0 * h <= p.max) return kForward;
  throw OptionError(fmt::format(
      "SimulationOptions::sensitivities: the range of parameter '{}' of model '{}' is too "
      "narrow around {} for a difference quotient with step {}",
      p.name, model_.structure().name, v, h));
}

void SensitivityModel::build_structure(bool error_control) {
  const ModelStructure& s = model_.structure();
  structure_ = ModelStructure{};
  structure_.name = s.name;
  structure_.parameters = s.parameters;
  for (std::size_t j = 0; j < n_; ++j) structure_.variables.add(s.variables.info(j));
  for (std::size_t i = 0; i < n_; ++i) structure_.equations.add(s.equations.info(i));
  structure_.outputs = s.outputs;
  structure_.crossings = s.crossings;
  structure_.time_events = s.time_events;
  for (std::size_t k = 0; k < sources_.size(); ++k) {
    const SensitivitySource& src = sources_[k];
    const std::string by = src.kind == SensitivitySource::Kind::kParameter
                               ? s.parameters[src.index].unit
                               : s.variables.info(src.index).unit;
    const std::vector<double> start = start_derivative(k);
    for (std::size_t j = 0; j < n_; ++j) {
      const VariableInfo x = s.variables.info(j);
      VariableInfo v;
      v.name = "d(" + x.name + ")/d(" + src.name + ")";
      v.unit = per(x.unit, by);
      v.der_unit = per(x.der_unit, by);
      v.start = start[j];
      v.fixed = x.fixed;
      v.nominal = x.nominal / src.scale;
      if (x.abs_tol) v.abs_tol = *x.abs_tol / src.scale;
      v.error_control = error_control ? x.error_control : ErrorControl::kExcluded;
      structure_.variables.add(std::move(v));
    }
    for (std::size_t i = 0; i < n_; ++i) {
      structure_.equations.add(
          {"d(" + s.equations.name(i) + ")/d(" + src.name + ")", s.equations.kind(i)});
    }
    for (const OutputInfo& o : s.outputs) {
      structure_.outputs.push_back({"d(" + o.name + ")/d(" + src.name + ")", per(o.unit, by)});
    }
  }
  augment_pattern();
}

void SensitivityModel::augment_pattern() {
  const SparsityTable& pattern = model_.structure().sparsity;
  structure_.sparsity.clear();
  pattern.for_each([this](std::size_t row, std::size_t col) {
    structure_.sparsity.add({row, col});
  });
  // Row i of source k depends on what row i does, through x and through s_k alike.
  for (std::size_t k = 0; k < sources_.size(); ++k) {
    pattern.for_each([this, k](std::size_t row, std::size_t col) {
      const std::size_t shift = n_ * (k + 1);
      structure_.sparsity.add({row + shift, col});
      structure_.sparsity.add({row + shift, col + shift});
    });
  }
}

std::vector<double> SensitivityModel::start_derivative(std::size_t k) {
  std::vector<double> d(n_, 0.0);
  const SensitivitySource& src = sources_[k];
  // A start value the model makes consistent itself (an index-reduced model's slots) moves
  // the others with it: the unit vector would contradict the rows, and the states' rows
  // cannot jump at t0 to mend it. Otherwise the start values are independent.
  const bool start = src.kind == SensitivitySource::Kind::kStart;
  if (start && !model_.vary_start(src.index, values_[k])) {
    d[src.index] = 1.0;
    return d;
  }
  const Stencil& st = stencils_[k];
  const double h = steps_[k];
  for (std::size_t m = 0; m < st.points; ++m) {
    if (start) {
      model_.vary_start(src.index, values_[k] + st.offset[m] * h);
    } else {
      vary(k, st.offset[m] * h);
    }
    const std::span<const double> starts = model_.structure().variables.starts();
    for (std::size_t j = 0; j < n_; ++j) d[j] += st.weight[m] * starts[j] / h;
  }
  if (start) {
    model_.vary_start(src.index, values_[k]);
  } else {
    vary(k, 0.0);
  }
  return d;
}

void SensitivityModel::vary(std::size_t k, double eps) {
  const SensitivitySource& src = sources_[k];
  if (src.kind != SensitivitySource::Kind::kParameter) return;
  model_.vary_parameter(model_.structure().parameters[src.index].name, values_[k] + eps);
}

void SensitivityModel::evaluate_at(const Evaluation& e, std::size_t k, double eps, Path path,
                                   std::span<double> r, std::span<double> w) {
  const std::span<const double> x = e.x();
  const std::span<const double> der_x = e.der_x();
  const std::size_t shift = n_ * (k + 1);
  const double along = path == Path::kFull ? eps : 0.0;
  for (std::size_t j = 0; j < n_; ++j) {
    x_[j] = x[j] + along * x[shift + j];
    der_x_[j] = der_x[j] + along * der_x[shift + j];
  }
  // In a jump solve the left limits move along the path too: s_k^- is part of x^-.
  const std::span<const double> left = e.left_limits();
  for (std::size_t j = 0; j < n_ && !left.empty(); ++j)
    left_[j] = left[j] + along * left[shift + j];
  // The model's branches are the point's: its crossing helpers see the Booleans as they are.
  Evaluation at = e.at(x_, der_x_, r, w, CrossingValues::kFrozen,
                       left.empty() ? std::span<const double>() : std::span<const double>(left_));
  vary(k, eps);
  try {
    model_.evaluate(at);
  } catch (...) {
    vary(k, 0.0);
    throw;
  }
  vary(k, 0.0);
}

void SensitivityModel::quotient(Evaluation& e, std::size_t k, Path path, std::span<double> w) {
  const Stencil& st = stencils_[k];
  const double h = steps_[k];
  const bool outputs = !w.empty();
  std::fill(sums_.r.begin(), sums_.r.end(), 0.0);
  std::fill(sums_.w.begin(), sums_.w.end(), 0.0);
  for (std::size_t m = 0; m < st.points; ++m) {
    if (st.offset[m] != 0) evaluate_at(e, k, st.offset[m] * h, path, r_, w);
    const std::span<const double> rm = st.offset[m] == 0 ? e.residuals().first(n_) : r_;
    const std::span<const double> wm = st.offset[m] == 0 ? w0_ : w_;
    for (std::size_t i = 0; i < n_; ++i) sums_.r[i] += st.weight[m] * rm[i];
    for (std::size_t j = 0; j < outputs_ && outputs; ++j) sums_.w[j] += st.weight[m] * wm[j];
  }
  for (double& v : sums_.r) v /= h;
  for (double& v : sums_.w) v /= h;
}

void SensitivityModel::evaluate(Evaluation& e) {
  const bool outputs = e.wants_outputs() && outputs_ > 0;
  const std::span<double> r = e.residuals();
  const std::span<double> w0 = outputs ? std::span<double>(w0_) : std::span<double>();
  const std::span<const double> left = e.left_limits();
  Evaluation base = e.at(e.x().first(n_), e.der_x().first(n_), r.first(n_), w0,
                         e.wants_crossings() ? CrossingValues::kUsed : CrossingValues::kUnused,
                         left.empty() ? left : left.first(n_));
  model_.evaluate(base);
  for (std::size_t j = 0; j < outputs_ && outputs; ++j) e.set(Out{j}, w0_[j]);
  // From the model's exact Jacobian the rows' derivative along s_k is a product, free of the
  // quotient's rounding over its step; only a parameter's own term F_p is a quotient then. Not
  // in a jump solve: rows that read the left limits depend on s_k^- too, which the Jacobian in
  // x does not hold.
  const bool linearised = model_.has_exact_jacobian() && left.empty();
  if (linearised) linearisation_.take(model_, e.t(), e.x().first(n_), e.der_x().first(n_));
  const std::span<double> w = outputs ? std::span<double>(w_) : std::span<double>();
  for (std::size_t k = 0; k < sources_.size(); ++k) {
    const std::size_t shift = n_ * (k + 1);
    const std::span<double> rows = r.subspan(shift, n_);
    if (linearised) {
      linearisation_.apply(e.x().subspan(shift, n_), e.der_x().subspan(shift, n_), rows);
      if (sources_[k].kind == SensitivitySource::Kind::kParameter) {
        quotient(e, k, Path::kParameterOnly, {});
        for (std::size_t i = 0; i < n_; ++i) rows[i] += sums_.r[i];
      }
    }
    if (!linearised || outputs) quotient(e, k, Path::kFull, w);
    if (!linearised) std::copy(sums_.r.begin(), sums_.r.end(), rows.begin());
    for (std::size_t j = 0; j < outputs_ && outputs; ++j) {
      e.set(Out{outputs_ * (k + 1) + j}, sums_.w[j]);
    }
  }
}

void SensitivityModel::widen_row_sizes(std::span<double> sizes) const {
  for (std::size_t k = 0; k < sources_.size(); ++k) {
    const std::size_t shift = n_ * (k + 1);
    for (std::size_t i = 0; i < n_; ++i) {
      sizes[shift + i] = std::max(sizes[shift + i], sizes[i] / sources_[k].scale);
    }
  }
}

std::string SensitivityModel::failure_note(double t, std::span<const double> x,
                                           std::span<const double> der_x) {
  return model_.failure_note(t, x.first(n_), der_x.first(n_));
}

}  // namespace hdae::detail
