#include "reinit/jump_system.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

namespace hdae::reinit {
namespace {

Eigen::Index idx(std::size_t i) { return static_cast<Eigen::Index>(i); }

}  // namespace

void validate_problem(const JumpProblem& problem, std::size_t n, const char* caller) {
  if (problem.structure == nullptr) {
    throw std::invalid_argument(fmt::format("{}: JumpProblem::structure is null", caller));
  }
  if (problem.structure->num_unknowns() != n || problem.row_kinds.size() != n) {
    throw std::invalid_argument(fmt::format(
        "{}: sizes differ: x has {} entries, the structure {} variables, row_kinds {} rows", caller,
        n, problem.structure->num_unknowns(), problem.row_kinds.size()));
  }
  if (!problem.residual) {
    throw std::invalid_argument(fmt::format("{}: JumpProblem::residual is empty", caller));
  }
  if (!(problem.tolerance > 0.0) || problem.max_iterations < 1) {
    throw std::invalid_argument(
        fmt::format("{}: tolerance must be > 0 and max_iterations >= 1, got {} and {}", caller,
                    problem.tolerance, problem.max_iterations));
  }
}

JumpSystem::JumpSystem(const JumpProblem& problem, std::span<const double> x_minus)
    : problem_(problem) {
  const std::size_t n = x_minus.size();
  x_minus_ = Eigen::Map<const Eigen::VectorXd>(x_minus.data(), idx(n));
  nominal_.resize(idx(n));
  fixed_.assign(n, 0);
  const VariableTable& variables = problem.structure->variables;
  for (std::size_t j = 0; j < n; ++j) {
    const VariableInfo& v = variables.declared(j);
    nominal_[idx(j)] = v.nominal;
    // Fixed start values are honoured only where the caller asks (the initial jump at t0).
    fixed_[j] = (problem.fixed_values == FixedValues::kKeep && v.fixed) ? 1 : 0;
  }
  constexpr double kInf = std::numeric_limits<double>::infinity();
  lower_.setConstant(idx(n), -kInf);
  upper_.setConstant(idx(n), kInf);
  for (std::size_t j = 0; j < n; ++j) {
    const VariableInfo& v = variables.declared(j);
    if (is_fixed(j) || is_impulsive(j)) continue;  // a slack or an integral: no region
    if (v.min) lower_[idx(j)] = *v.min;
    if (v.max) upper_[idx(j)] = *v.max;
  }
  has_constraints_ =
      !problem.hidden.empty() || std::any_of(problem.row_kinds.begin(), problem.row_kinds.end(),
                                             [](RowKind k) { return k == RowKind::kConstraint; });
  for (auto* buffer : {&x_plus_, &x_mid_, &jump_, &zeros_, &r_with_jump_, &r_without_jump_}) {
    buffer->assign(n, 0.0);
  }
  if (!problem.impulsive.empty()) x_mid_without_impulse_.assign(n, 0.0);
  if (has_constraints_ && problem.rule == JumpRule::kMidpoint) r_plus_.assign(n, 0.0);
}

void JumpSystem::scale_impulses(const linalg::JacobianMatrix& jac) {
  if (problem_.impulsive.empty()) return;
  const auto n = static_cast<std::size_t>(size());
  Eigen::VectorXd others = nominal_;
  for (std::size_t j = 0; j < n; ++j) {
    if (is_impulsive(j)) others[idx(j)] = 0.0;
  }
  const Eigen::VectorXd reach = jac.row_max_abs(others);
  for (std::size_t j = 0; j < n; ++j) {
    if (!is_impulsive(j)) continue;
    double scale = 0.0;
    jac.for_each_in_column(idx(j), [&](Eigen::Index row, double coefficient) {
      if (coefficient != 0.0) scale = std::max(scale, reach[row] / std::abs(coefficient));
    });
    if (scale > 0.0 && std::isfinite(scale)) nominal_[idx(j)] = scale;
  }
}

bool JumpSystem::any_fixed() const {
  return std::any_of(fixed_.begin(), fixed_.end(), [](char f) { return f != 0; });
}

void JumpSystem::residual(const Eigen::VectorXd& z, Eigen::VectorXd& g) {
  const std::size_t n = fixed_.size();
  const bool midpoint = problem_.rule == JumpRule::kMidpoint;
  const bool based = !problem_.jump_base.empty();
  // Without impulses x_mid_ is the point without them too.
  const bool impulses = !x_mid_without_impulse_.empty();
  for (std::size_t j = 0; j < n; ++j) {
    const Eigen::Index k = idx(j);
    const bool impulse = is_impulsive(j);
    x_plus_[j] = is_fixed(j) || impulse ? x_minus_[k] : z[k];
    jump_[j] = impulse ? 0.0 : z[k] - x_minus_[k];
    if (based) jump_[j] += problem_.jump_base[j];
    x_mid_[j] = midpoint ? 0.5 * (x_minus_[k] + x_plus_[j]) : x_plus_[j];
    if (impulses) x_mid_without_impulse_[j] = impulse ? 0.0 : x_mid_[j];
    if (impulse) x_mid_[j] = z[k];
  }
  // ITI paper eq. (8) in the difference form it gives: F(v_Rm, v_I) - F(v_Rm, 0).
  problem_.residual(problem_.t, x_mid_, jump_, r_with_jump_);
  problem_.residual(problem_.t, impulses ? x_mid_without_impulse_ : x_mid_,
                    based ? problem_.jump_base : std::span<const double>(zeros_), r_without_jump_);
  if (has_constraints_ && midpoint) problem_.residual(problem_.t, x_plus_, zeros_, r_plus_);
  const std::vector<double>& r_at_plus = midpoint ? r_plus_ : r_without_jump_;
  g.resize(idx(n));
  for (std::size_t i = 0; i < n; ++i) {
    const bool integrated = problem_.row_kinds[i] == RowKind::kDifferential ||
                            (!problem_.integrated.empty() && problem_.integrated[i] != 0);
    g[idx(i)] = integrated ? r_with_jump_[i] - r_without_jump_[i] : r_at_plus[i];
  }
  // A hidden constraint holds at x^+ like an f_c row; its f_d rows' jump equations, which
  // it makes dependent, stay in force except the one it replaces.
  for (const HiddenConstraint& h : problem_.hidden) {
    double sum = 0.0;
    for (std::size_t k = 0; k < h.rows.size(); ++k) sum += h.coefficients[k] * r_at_plus[h.rows[k]];
    g[idx(h.replaced_row)] = sum;
  }
}

std::vector<double> JumpSystem::x_plus(const Eigen::VectorXd& z) const {
  std::vector<double> x(fixed_.size());
  for (std::size_t j = 0; j < x.size(); ++j) {
    x[j] = is_fixed(j) || is_impulsive(j) ? x_minus_[idx(j)] : z[idx(j)];
  }
  return x;
}

Eigen::VectorXd JumpSystem::initial_iterate() const {
  Eigen::VectorXd z = x_minus_;
  for (std::size_t j = 0; j < fixed_.size(); ++j) {
    if (is_impulsive(j)) z[idx(j)] = 0.0;
  }
  return z;
}

std::vector<double> JumpSystem::impulse_integrals(const Eigen::VectorXd& z) const {
  if (problem_.impulsive.empty()) return {};
  std::vector<double> integrals(fixed_.size(), 0.0);
  for (std::size_t j = 0; j < integrals.size(); ++j) {
    if (is_impulsive(j)) integrals[j] = z[idx(j)];
  }
  return integrals;
}

void JumpSystem::plus_residual(const Eigen::VectorXd& z, Eigen::VectorXd& r) {
  for (std::size_t j = 0; j < fixed_.size(); ++j) {
    x_plus_[j] = is_fixed(j) || is_impulsive(j) ? x_minus_[idx(j)] : z[idx(j)];
  }
  r.resize(size());
  problem_.residual(problem_.t, x_plus_, zeros_,
                    std::span<double>(r.data(), static_cast<std::size_t>(r.size())));
}

const Eigen::VectorXd& JumpSystem::increments(const Eigen::VectorXd& z) {
  increments_.resize(z.size());
  for (Eigen::Index j = 0; j < z.size(); ++j) {
    increments_[j] = linalg::difference_increment(z[j], nominal_[j]);
  }
  return increments_;
}

void JumpSystem::jacobian(const Eigen::VectorXd& z, const Eigen::VectorXd& g,
                          const linalg::ColouredPattern* pattern, linalg::JacobianMatrix& jac) {
  const Eigen::VectorXd& h = increments(z);
  // z + 0.0 where z + step has no step: the same values, signed zeros included.
  stepped_z_ = z.array() + 0.0;
  linalg::difference_jacobian_into(
      pattern, h, g,
      [&](std::span<const sparsity::Index> columns, Eigen::VectorXd& after) {
        for (const std::size_t j : columns) stepped_z_[idx(j)] = z[idx(j)] + h[idx(j)];
        residual(stepped_z_, after);
        for (const std::size_t j : columns) stepped_z_[idx(j)] = z[idx(j)] + 0.0;
      },
      jac);
}

Eigen::VectorXd JumpSystem::fixed_value_sensitivity(const Eigen::VectorXd& z,
                                                    const Eigen::VectorXd& g, std::size_t j) {
  const Eigen::Index k = idx(j);
  const double h = linalg::difference_increment(x_minus_[k], nominal_[k]);
  const double saved = x_minus_[k];
  x_minus_[k] = saved + h;
  Eigen::VectorXd shifted_z = z;
  shifted_z[k] += h;  // keeps the slack z_j - x^-_j
  Eigen::VectorXd shifted_g(z.size());
  residual(shifted_z, shifted_g);
  x_minus_[k] = saved;
  return (shifted_g - g) / h;
}

}  // namespace hdae::reinit
