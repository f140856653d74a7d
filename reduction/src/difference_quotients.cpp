#include "hdae/difference_quotients.hpp"

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "hdae/errors.hpp"

namespace hdae {
namespace {

constexpr int kHalfWidth = 4;  ///< M: the stencil has the 2M + 1 points m = -M..M
constexpr int kPoints = 2 * kHalfWidth + 1;

/// w(q, m): d^q/ds^q at s = 0 of the polynomial of degree 2M through the values at s = m
/// (unit spacing), as the weights of those values: row q of the inverse of V(m, k) = m^k / k!,
/// since that polynomial is sum_k a_k s^k / k! with a_k its k-th derivative.
const Eigen::Matrix<double, kPoints, kPoints>& stencil_weights() {
  static const Eigen::Matrix<double, kPoints, kPoints> kWeights = [] {
    Eigen::Matrix<double, kPoints, kPoints> v;
    for (int m = 0; m < kPoints; ++m) {
      double term = 1.0;
      for (int k = 0; k < kPoints; ++k) {
        v(m, k) = term;
        term *= static_cast<double>(m - kHalfWidth) / (k + 1);
      }
    }
    return Eigen::Matrix<double, kPoints, kPoints>(v.fullPivLu().inverse());
  }();
  return kWeights;
}

/// p(s) = sum_k c_k s^k / k! for the Taylor coefficients c_0..c_D of a jet.
template <int D>
double taylor(const Jet<D>& jet, double s) {
  double value = 0.0;
  double term = 1.0;
  for (int k = 0; k <= D; ++k) {
    value += jet.derivative(k) * term;
    term *= s / (k + 1);
  }
  return value;
}

/// The model's name, after checking what the adapter needs (see the constructor).
const std::string& checked_name(const SimulationModel* model, double step_s) {
  if (model == nullptr) throw ModelError("difference quotients: no model given");
  const ModelStructure& s = model->structure();
  if (!s.crossings.empty() || !s.time_events.empty()) {
    throw ModelError("model '" + s.name +
                     "': index reduction by difference quotients does not support crossings or "
                     "time events");
  }
  if (!(std::isfinite(step_s) && step_s > 0.0)) {
    throw ModelError("model '" + s.name +
                     "': the difference quotients' step must be finite and > 0, got " +
                     std::to_string(step_s));
  }
  return s.name;
}

}  // namespace

DifferenceQuotientModel::DifferenceQuotientModel(std::unique_ptr<SimulationModel> model,
                                                 double step_s)
    : PhysicsModel(checked_name(model.get(), step_s)), model_(std::move(model)), step_s_(step_s) {
  const ModelStructure& s = model_->structure();
  for (std::size_t j = 0; j < s.variables.size(); ++j) declare_variable(s.variables.info(j));
  for (std::size_t i = 0; i < s.equations.size(); ++i) {
    declare_equation(s.equations.name(i), s.equations.kind(i));
  }
  for (const OutputInfo& o : s.outputs) declare_output(o.name, o.unit);
  for (const ParameterInfo& p : s.parameters) declare_parameter(p);
  // The wrapped model's pattern, so that its structure is probed a colour of columns at a
  // time rather than a variable at a time (a cost that grows with the square of the size).
  s.sparsity.for_each(
      [this](std::size_t row, std::size_t col) { declare_dependency(Eq{row}, Var{col}); });
}

void DifferenceQuotientModel::residuals_of(Equations<double>& e) const {
  const std::size_t n = structure().variables.size();
  std::vector<double> x(n), der_x(n), r(n);
  for (std::size_t j = 0; j < n; ++j) {
    x[j] = e.x(Var{j});
    der_x[j] = e.der(Var{j});
  }
  Evaluation inner(e.t(), x, der_x, r, {}, nullptr, EvaluationPhase::kContinuous);
  model_->evaluate(inner);
  for (std::size_t i = 0; i < n; ++i) e.set(Eq{i}, r[i]);
}

template <int D>
void DifferenceQuotientModel::derivatives(Equations<Jet<D>>& e) const {
  const std::size_t n = structure().variables.size();
  std::vector<double> x(n), der_x(n), r(n);
  std::vector<std::array<double, kPoints>> samples(n);
  const double t = e.t().value();
  for (int m = 0; m < kPoints; ++m) {
    const double s = (m - kHalfWidth) * step_s_;
    for (std::size_t j = 0; j < n; ++j) {
      x[j] = taylor(e.x(Var{j}), s);
      der_x[j] = taylor(e.der(Var{j}), s);
    }
    Evaluation inner(t + s, x, der_x, r, {}, nullptr, EvaluationPhase::kContinuous);
    model_->evaluate(inner);
    for (std::size_t i = 0; i < n; ++i) samples[i][static_cast<std::size_t>(m)] = r[i];
  }
  const auto& w = stencil_weights();
  for (std::size_t i = 0; i < n; ++i) {
    std::array<double, D + 1> d{};
    double scale = 1.0;
    for (int q = 0; q <= D; ++q) {
      double sum = 0.0;
      for (int m = 0; m < kPoints; ++m) sum += w(q, m) * samples[i][static_cast<std::size_t>(m)];
      d[static_cast<std::size_t>(q)] = sum / scale;
      scale *= step_s_;
    }
    d[0] = samples[i][kHalfWidth];  // the equation itself, not its interpolant
    e.set(Eq{i}, Jet<D>::from_derivatives(d.data()));
  }
}

void DifferenceQuotientModel::residuals_of(Equations<Jet1>& e) const { derivatives(e); }
void DifferenceQuotientModel::residuals_of(Equations<Jet2>& e) const { derivatives(e); }
void DifferenceQuotientModel::residuals_of(Equations<Jet3>& e) const { derivatives(e); }

void DifferenceQuotientModel::residuals_of(Equations<DirectedJet1>& /*e*/) const {
  refuse_directions();
}
void DifferenceQuotientModel::residuals_of(Equations<DirectedJet2>& /*e*/) const {
  refuse_directions();
}
void DifferenceQuotientModel::residuals_of(Equations<DirectedJet3>& /*e*/) const {
  refuse_directions();
}

void DifferenceQuotientModel::refuse_directions() const {
  throw ModelError("model '" + structure().name +
                   "': difference quotients in time give no derivatives in directions of the "
                   "unknowns (propagates_jets() is false)");
}

void DifferenceQuotientModel::outputs(Evaluation& e) const {
  const std::size_t n = structure().variables.size();
  std::vector<double> r(n), w(structure().outputs.size());
  Evaluation inner(e.t(), e.x(), e.der_x(), r, w, nullptr, EvaluationPhase::kContinuous);
  model_->evaluate(inner);
  for (std::size_t k = 0; k < w.size(); ++k) e.set(Out{k}, w[k]);
}

void DifferenceQuotientModel::reset() { model_->reset(); }

void DifferenceQuotientModel::parameters_changed() {
  for (const ParameterInfo& p : structure().parameters) {
    if (model_->parameter(p.name) != p.value) model_->set_parameter(p.name, p.value);
  }
  const auto& inner = model_->structure().variables;
  for (std::size_t j = 0; j < inner.size(); ++j) set_start(Var{j}, inner.start(j));
}

}  // namespace hdae
