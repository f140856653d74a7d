// Small residual models for the re-initialization tests (tests/reinit/): each is a
// ModelStructure with names and nominal values, the current row kinds and a residual lambda,
// so that solve_jump and consistent_derivatives can be exercised without a simulator.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "hdae/model.hpp"
#include "model/model_pattern.hpp"
#include "reinit/jump_solver.hpp"
#include "reinit/workspace.hpp"

namespace hdae::reinit::testing {

struct TestModel {
  ModelStructure structure;
  std::vector<RowKind> kinds;
  ResidualFunction residual;
  /// Set by use_sparse_path(): the problems take the sparse path with the declared pattern.
  std::shared_ptr<Workspace> workspace;

  /// Solves with the declared pattern, as a run on the sparse path does.
  void use_sparse_path() { workspace = std::make_shared<Workspace>(detail::pattern_of(structure)); }

  /// A jump problem at time t with the Newton tolerance the simulator uses by default
  /// (jump_tol_factor 1e-3 times rel_tol 1e-6).
  [[nodiscard]] JumpProblem problem(double t = 0.0, JumpRule rule = JumpRule::kMidpoint,
                                    FixedValues fixed = FixedValues::kIgnore) const {
    JumpProblem p;
    p.structure = &structure;
    p.row_kinds = kinds;
    p.residual = residual;
    p.t = t;
    p.rule = rule;
    p.fixed_values = fixed;
    p.tolerance = 1e-9;
    p.workspace = workspace.get();
    return p;
  }
};

/// Variables by name (nominal 1, not fixed) and equations by (name, kind).
inline TestModel make_model(const std::vector<std::string>& variables,
                            const std::vector<std::pair<std::string, RowKind>>& equations,
                            ResidualFunction residual) {
  TestModel m;
  m.structure.name = "test";
  for (const std::string& v : variables) m.structure.variables.add(VariableInfo{.name = v});
  for (const auto& [name, kind] : equations) {
    m.structure.equations.add(EquationInfo{name, kind});
    m.kinds.push_back(kind);
  }
  m.residual = std::move(residual);
  return m;
}

/// The ideal clutch of docs/design.md, "The jump solve" (Benveniste et al. 2019, as in ModiaMath's
/// IdealClutch), engaged: x = [w1, w2, tau_int], der_x = [der(w1), der(w2), tau].
///   J1 der(w1) = k i_emf - tau,  i_emf = (V0 - k w1)/R - C k der(w1)   (f_d)
///   J2 der(w2) = tau                                                   (f_d)
///   0 = w2 - w1                                                        (f_c, engaged)
struct ClutchParameters {
  double V0 = 10.0, J1 = 0.1, J2 = 0.4, R = 10.0, C = 2.0, k = 0.25;
};

inline TestModel make_clutch(ClutchParameters p = {}) {
  return make_model(
      {"w1", "w2", "tau_int"},
      {{"J1*der(w1) = tau_emf - tau", RowKind::kDifferential},
       {"J2*der(w2) = tau", RowKind::kDifferential},
       {"w2 - w1 = 0", RowKind::kConstraint}},
      [p](double, std::span<const double> x, std::span<const double> dx, std::span<double> r) {
        const double i_resistor = (p.V0 - p.k * x[0]) / p.R;
        const double i_capacitor = p.C * p.k * dx[0];
        const double tau_emf = p.k * (i_resistor - i_capacitor);
        r[0] = p.J1 * dx[0] - (tau_emf - dx[2]);
        r[1] = p.J2 * dx[1] - dx[2];
        r[2] = x[1] - x[0];
      });
}

/// ModiaMath's PendulumDAE in stabilised GGL form (Gear, Gupta, Leimkuhler; Cellier's
/// lecture, paper 001): x = [x, y, vx, vy, lambda_int, mue_int], der_x = [der(x), der(y),
/// der(vx), der(vy), lambda, mue], L = 1, m = 1, g = 9.81:
///   der(x) = vx - x*mue,  der(y) = vy - y*mue                 (f_d)
///   m*der(vx) = -x*lambda,  m*der(vy) = -y*lambda - m*g       (f_d)
///   0 = (x^2 + y^2 - L^2)/2,  0 = x*vx + y*vy                 (f_c)
inline TestModel make_pendulum_ggl() {
  constexpr double kL = 1.0;
  constexpr double kM = 1.0;
  constexpr double kG = 9.81;
  return make_model(
      {"x", "y", "vx", "vy", "lambda_int", "mue_int"},
      {{"der(x) = vx - x*mue", RowKind::kDifferential},
       {"der(y) = vy - y*mue", RowKind::kDifferential},
       {"m*der(vx) = -x*lambda", RowKind::kDifferential},
       {"m*der(vy) = -y*lambda - m*g", RowKind::kDifferential},
       {"0 = (x^2 + y^2 - L^2)/2", RowKind::kConstraint},
       {"0 = x*vx + y*vy", RowKind::kConstraint}},
      [](double, std::span<const double> s, std::span<const double> ds, std::span<double> r) {
        const double x = s[0], y = s[1], vx = s[2], vy = s[3];
        const double lambda = ds[4], mue = ds[5];
        r[0] = ds[0] - vx + x * mue;
        r[1] = ds[1] - vy + y * mue;
        r[2] = kM * ds[2] + x * lambda;
        r[3] = kM * ds[3] + y * lambda + kM * kG;
        r[4] = (x * x + y * y - kL * kL) / 2.0;
        r[5] = x * vx + y * vy;
      });
}

}  // namespace hdae::reinit::testing
