#include "impact_jump.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <Eigen/SVD>

#include "consistent_start.hpp"
#include "equation_derivatives.hpp"
#include "hdae/errors.hpp"
#include "impulse_orders.hpp"

namespace hdae::reduction {
namespace {

/// What a slot of the reduced system does at the impact.
enum class Role {
  kContinuous,    ///< keeps its value
  kJumps,         ///< its right limit is an unknown
  kDirac,         ///< carries a Dirac impulse whose integral is an unknown
  kDerivedDirac,  ///< carries a Dirac impulse whose integral is the jump of its antiderivative
};

/// Singular values below this share of the largest make the scaled jump matrix singular: its
/// columns are difference quotients with relative errors near 1e-8.
constexpr double kSingular = 1e-9;
/// Largest jump system whose rank is checked by a full singular value decomposition.
constexpr std::size_t kMaxRankCheck = 500;

struct Plan {
  std::vector<Role> role;                   ///< per unknown of the reduced system
  std::vector<std::size_t> antiderivative;  ///< per kDerivedDirac unknown
  std::vector<std::size_t> unknowns;        ///< the jump solve's unknowns (reduced unknowns)
  std::vector<std::size_t> rows_at_plus;    ///< reduced rows that hold at the right limits
  std::vector<std::size_t> integrated;      ///< original equations integrated over the impulse
};

std::string variable_names(const ModelStructure& s, std::span<const std::size_t> vars) {
  std::vector<std::string> names;
  for (const std::size_t v : vars) names.push_back(s.variables.name(v));
  return fmt::format("{}", fmt::join(names, ", "));
}

/// The orders of the slots; throws when one would carry a Dirac's derivative.
std::vector<int> slot_orders(const SlotLayout& layout, const ModelStructure& reduced,
                             std::span<const int> b, const ModelStructure& original,
                             std::span<const std::size_t> sources,
                             std::vector<std::size_t>& antiderivative) {
  std::vector<int> order(layout.num_slots, kNotReached);
  antiderivative.assign(layout.num_slots, SlotLayout::kNone);
  for (std::size_t l = 0; l < layout.num_logical(); ++l) {
    const auto [j, k] = layout.logical(l);
    if (b[j] == kNotReached) continue;
    const std::size_t u = layout.unknown_of[l];
    order[u] = std::max(order[u], b[j] + k);
    if (b[j] + k == 0 && k >= 1) antiderivative[u] = layout.slot(j, k - 1);
  }
  for (std::size_t u = 0; u < order.size(); ++u) {
    if (order[u] <= 0) continue;  // a finite jump, continuous, or not reached (kNotReached < 0)
    throw ModelError(fmt::format(
        "the impulse of {} would give {} the derivative of a Dirac impulse (impulse order {}); "
        "the jump integrates Dirac impulses and finite jumps only: mark the force that acts as "
        "the impact source, not a position or velocity",
        variable_names(original, sources), reduced.variables.name(u), order[u]));
  }
  return order;
}

Plan make_plan(const PhysicsModel& model, const SlotLayout& layout, const ModelStructure& reduced,
               const ImpactStructure& impact) {
  const ModelStructure& original = model.structure();
  std::vector<int> cap(layout.n);
  for (std::size_t j = 0; j < layout.n; ++j) cap[j] = -layout.d[j];
  const std::vector<int> b =
      impulse_orders(*impact.before, impact.transversal, impact.sources, cap);
  Plan plan;
  const std::vector<int> order =
      slot_orders(layout, reduced, b, original, impact.sources, plan.antiderivative);
  plan.role.assign(layout.num_slots, Role::kContinuous);
  for (std::size_t u = 0; u < layout.num_slots; ++u) {
    if (order[u] == -1) {
      plan.role[u] = Role::kJumps;
    } else if (order[u] == 0) {
      plan.role[u] =
          plan.antiderivative[u] == SlotLayout::kNone ? Role::kDirac : Role::kDerivedDirac;
    }
    if (plan.role[u] == Role::kJumps || plan.role[u] == Role::kDirac) plan.unknowns.push_back(u);
  }
  const std::vector<int> rows = row_orders(*impact.now, b);
  for (std::size_t i = 0; i < layout.n; ++i) {
    if (!layout.has_rows(i) || rows[i] == kNotReached) continue;
    for (int q = 0; q <= layout.c[i]; ++q) {
      const int o = rows[i] + q;
      if (o == -1) plan.rows_at_plus.push_back(layout.row(i, q));
      if (o == 0 && q == 0) plan.integrated.push_back(i);
      if (o >= 1 && q == 0) {
        throw ModelError(fmt::format(
            "the impulse of {} would put the derivative of a Dirac impulse into equation '{}'",
            variable_names(original, impact.sources), original.equations.name(i)));
      }
    }
  }
  return plan;
}

/// The jump equations of a plan at the unknowns z.
class JumpEquations {
 public:
  JumpEquations(const PhysicsModel& model, const SlotLayout& layout, const Plan& plan, double t,
                std::span<const double> y_minus)
      : model_(model),
        layout_(layout),
        plan_(plan),
        t_(t),
        minus_(y_minus.begin(), y_minus.end()),
        left_(layout.n) {
    std::vector<double> der_minus(layout.n);
    original_point(layout, y_minus, left_, der_minus);
  }

  [[nodiscard]] std::size_t size() const {
    return plan_.rows_at_plus.size() + plan_.integrated.size();
  }

  /// The right limits for the unknowns z (Dirac slots keep their left limits).
  [[nodiscard]] std::vector<double> right_limits(std::span<const double> z) const {
    std::vector<double> plus = minus_;
    for (std::size_t m = 0; m < z.size(); ++m) {
      const std::size_t u = plan_.unknowns[m];
      if (plan_.role[u] == Role::kJumps) plus[u] = z[m];
    }
    return plus;
  }

  void operator()(std::span<const double> z, std::span<double> r) const {
    const std::vector<double> plus = right_limits(z);
    all_rows_.resize(layout_.num_equation_rows);
    equation_derivatives(model_, layout_, t_, plus, all_rows_, left_);
    std::size_t m = 0;
    for (const std::size_t row : plan_.rows_at_plus) r[m++] = all_rows_[row];
    if (plan_.integrated.empty()) return;
    // ITI eq. (8): the regular slots at the means of their limits, the Dirac slots at their
    // integrals, less the same with the Dirac slots at zero.
    std::vector<double> with(layout_.num_slots), without(layout_.num_slots);
    for (std::size_t u = 0; u < layout_.num_slots; ++u) {
      with[u] = without[u] = 0.5 * (minus_[u] + plus[u]);
    }
    for (std::size_t k = 0; k < z.size(); ++k) {
      const std::size_t u = plan_.unknowns[k];
      if (plan_.role[u] == Role::kDirac) with[u] = z[k], without[u] = 0.0;
    }
    for (std::size_t u = 0; u < layout_.num_slots; ++u) {
      if (plan_.role[u] != Role::kDerivedDirac) continue;
      const std::size_t a = plan_.antiderivative[u];
      with[u] = plus[a] - minus_[a];
      without[u] = 0.0;
    }
    std::vector<double> r_with(layout_.n), r_without(layout_.n);
    original_residual(model_, layout_, t_, with, r_with, left_);
    original_residual(model_, layout_, t_, without, r_without, left_);
    for (const std::size_t i : plan_.integrated) r[m++] = r_with[i] - r_without[i];
  }

 private:
  const PhysicsModel& model_;
  const SlotLayout& layout_;
  const Plan& plan_;
  double t_;
  std::vector<double> minus_;
  std::vector<double> left_;  ///< the original's variables at the left limits (left_limit)
  mutable std::vector<double> all_rows_;
};

std::string row_name(const Plan& plan, const PhysicsModel& model, const ModelStructure& reduced,
                     std::size_t m) {
  if (m < plan.rows_at_plus.size()) return reduced.equations.name(plan.rows_at_plus[m]);
  return "integral of '" +
         model.structure().equations.name(plan.integrated[m - plan.rows_at_plus.size()]) +
         "' over the impulse";
}

/// Forward differences of the jump equations; the columns of Dirac integrals with a unit step,
/// since the integrated equations are affine in them (ITI's precondition).
Eigen::MatrixXd jump_matrix(const JumpEquations& f, const Plan& plan, std::span<const double> z,
                            std::span<const double> scale) {
  const std::size_t m = f.size();
  std::vector<double> point(z.begin(), z.end()), r0(m), r1(m);
  f(point, r0);
  Eigen::MatrixXd j(static_cast<Eigen::Index>(m), static_cast<Eigen::Index>(z.size()));
  for (std::size_t k = 0; k < z.size(); ++k) {
    const bool dirac = plan.role[plan.unknowns[k]] == Role::kDirac;
    const double h = dirac ? 1.0 : 1.5e-8 * std::max(std::abs(z[k]), scale[k]);
    point[k] = z[k] + h;
    f(point, r1);
    point[k] = z[k];
    for (std::size_t i = 0; i < m; ++i) {
      j(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(k)) = (r1[i] - r0[i]) / h;
    }
  }
  return j;
}

/// A Dirac integral's size is what it does: in each row it enters, the other terms at
/// nominal-sized changes over its own coefficient. The smallest over its rows: a row where its
/// coefficient nearly vanishes (the rod force in the horizontal momentum balance with the bob
/// under the pivot) says nothing about its size.
void scale_integrals(const Eigen::MatrixXd& j, const Plan& plan, std::vector<double>& scale) {
  for (Eigen::Index k = 0; k < j.cols(); ++k) {
    if (plan.role[plan.unknowns[static_cast<std::size_t>(k)]] != Role::kDirac) continue;
    double size = std::numeric_limits<double>::infinity();
    for (Eigen::Index i = 0; i < j.rows(); ++i) {
      const double own = std::abs(j(i, k));
      if (own == 0.0) continue;
      double others = 0.0;
      for (Eigen::Index c = 0; c < j.cols(); ++c) {
        if (c == k || plan.role[plan.unknowns[static_cast<std::size_t>(c)]] == Role::kDirac) {
          continue;
        }
        others += std::abs(j(i, c)) * scale[static_cast<std::size_t>(c)];
      }
      if (others > 0.0) size = std::min(size, others / own);
    }
    scale[static_cast<std::size_t>(k)] = std::isfinite(size) ? size : 1.0;
  }
}

/// ModelError naming the unknowns the jump equations leave open, if they do.
void check_rank(const JumpEquations& f, const Plan& plan, const PhysicsModel& model,
                const ModelStructure& reduced, std::span<const double> z,
                std::span<const double> scale) {
  if (z.empty() || z.size() > kMaxRankCheck) return;
  Eigen::MatrixXd j = jump_matrix(f, plan, z, scale);
  for (Eigen::Index k = 0; k < j.cols(); ++k) j.col(k) *= scale[static_cast<std::size_t>(k)];
  for (Eigen::Index i = 0; i < j.rows(); ++i) {
    const double norm = j.row(i).cwiseAbs().maxCoeff();
    if (norm > 0.0) j.row(i) /= norm;
  }
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(j, Eigen::ComputeFullU | Eigen::ComputeFullV);
  const Eigen::VectorXd& s = svd.singularValues();
  const Eigen::Index last = s.size() - 1;
  if (s(0) > 0.0 && s(last) > kSingular * s(0)) return;
  const Eigen::VectorXd open = svd.matrixV().col(last).cwiseAbs();
  const Eigen::VectorXd dependent = svd.matrixU().col(last).cwiseAbs();
  std::vector<std::string> vars, rows;
  for (Eigen::Index k = 0; k < open.size(); ++k) {
    if (open(k) > 0.1 * open.maxCoeff())
      vars.push_back(reduced.variables.name(plan.unknowns[static_cast<std::size_t>(k)]));
  }
  for (Eigen::Index i = 0; i < dependent.size(); ++i) {
    if (dependent(i) > 0.1 * dependent.maxCoeff())
      rows.push_back("'" + row_name(plan, model, reduced, static_cast<std::size_t>(i)) + "'");
  }
  throw ModelError(
      fmt::format("the jump equations over the impulse are singular: they do not determine {{{}}} "
                  "(equations {{{}}} are dependent there)",
                  fmt::join(vars, ", "), fmt::join(rows, ", ")));
}

void check_square(const Plan& plan, const PhysicsModel& model, const ModelStructure& reduced) {
  const std::size_t rows = plan.rows_at_plus.size() + plan.integrated.size();
  if (rows == plan.unknowns.size()) return;
  std::vector<std::string> row_names;
  for (std::size_t m = 0; m < rows; ++m)
    row_names.push_back("'" + row_name(plan, model, reduced, m) + "'");
  const char* hint = rows < plan.unknowns.size()
                         ? "the impact law must state the right limit of a quantity that jumps "
                           "(a velocity), not of a position"
                         : "the impulses cannot meet them all: is every force that acts at the "
                           "impact marked as a source?";
  throw ModelError(
      fmt::format("the jump over the impulse has {} unknowns {{{}}} but {} equations "
                  "{{{}}}: {}",
                  plan.unknowns.size(), variable_names(reduced, plan.unknowns), rows,
                  fmt::join(row_names, ", "), hint));
}

}  // namespace

ImpactJump integrate_impact(const PhysicsModel& model, const SlotLayout& layout,
                            const ModelStructure& reduced, const ImpactStructure& impact, double t,
                            std::span<const double> y_minus) {
  const Plan plan = make_plan(model, layout, reduced, impact);
  check_square(plan, model, reduced);
  const JumpEquations equations(model, layout, plan, t, y_minus);
  StartProblem p;
  p.num_equations = equations.size();
  p.equations = [&equations](std::span<const double> z, std::span<double> r) { equations(z, r); };
  constexpr double kInf = std::numeric_limits<double>::infinity();
  for (const std::size_t u : plan.unknowns) {
    const bool dirac = plan.role[u] == Role::kDirac;
    const VariableInfo info = reduced.variables.info(u);
    p.guess.push_back(dirac ? 0.0 : y_minus[u]);
    p.scale.push_back(dirac ? 1.0 : std::max(info.nominal, std::abs(y_minus[u])));
    p.lower.push_back(dirac ? -kInf : info.min.value_or(-kInf));
    p.upper.push_back(dirac ? kInf : info.max.value_or(kInf));
  }
  p.firmness.assign(plan.unknowns.size(), Firmness::kGuess);
  scale_integrals(jump_matrix(equations, plan, p.guess, p.scale), plan, p.scale);
  const StartResult r = consistent_start(p);
  if (!r.converged) {
    throw ModelError(fmt::format(
        "the jump over the impulse found no solution: after {} Newton steps '{}' is off by {:g} "
        "({:g} times its round-off)",
        r.iterations, row_name(plan, model, reduced, r.worst_row), r.residual_norm,
        r.residual_norm / r.round_off));
  }
  check_rank(equations, plan, model, reduced, r.y, p.scale);
  ImpactJump jump;
  jump.slots = equations.right_limits(r.y);
  for (std::size_t k = 0; k < plan.unknowns.size(); ++k) {
    if (plan.role[plan.unknowns[k]] == Role::kDirac) {
      jump.impulses.emplace_back(plan.unknowns[k], r.y[k]);
    }
  }
  return jump;
}

}  // namespace hdae::reduction
