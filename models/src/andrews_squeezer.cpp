#include "hdae/models/andrews_squeezer.hpp"

#include <span>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "hdae/errors.hpp"
#include "parameter_fields.hpp"

namespace hdae::models {

namespace {

using P = AndrewsSqueezerParameters;
namespace as = andrews_squeezer;

// The first three rows are both forms' parameters; the index-3 form adds the fourth.
const std::array<detail::ParameterField<P>, 4> kFields = {{
    {{.name = "mom", .unit = "N.m", .description = "driving torque on the crank"},
     [](P& p) -> double& { return p.torque_nm; }},
    {{.name = "c0",
      .unit = "N/m",
      .min = 0.0,
      .description = "stiffness of the spring between body 3 and the frame"},
     [](P& p) -> double& { return p.spring_stiffness_npm; }},
    {{.name = "l0",
      .unit = "m",
      .min = detail::kPositive,
      .description = "unstretched length of the spring"},
     [](P& p) -> double& { return p.spring_length_m; }},
    {{.name = "Theta_offset",
      .unit = "rad",
      .description = "added to Theta's start value (moved back onto the loops at t0)"},
     [](P& p) -> double& { return p.theta_offset_rad; }},
}};
constexpr std::size_t kIndex1Fields = 3;
// Typical magnitudes from the data, not from the solution: the driving torque 0.033 N m on
// the crank's inertia about its pivot (M11 = 2.7e-6 kg m^2 at the start) accelerates it at
// about 1e4 rad/s^2, so within the 0.03 s of the test set's run the crank turns at some 1e2
// to 1e3 rad/s; the spring, 25 mm shorter than l0 at the start, pushes body 3 with
// c0 (l0 - L) = 114 N, which the joints hold: forces of order 1e2 N.
constexpr double kAngularVelocityNominal = 1e3;      // rad/s
constexpr double kAngularAccelerationNominal = 1e4;  // rad/s^2
constexpr double kJointForceNominal = 1e2;           // N

// The loop rows as published (Hairer and Wanner's g(q)), F the rod's end.
constexpr std::array<const char*, 6> kLoopNames = {
    "0 = rr*cos(beta) - d*cos(beta+Theta) - ss*sin(gamma) - xb",
    "0 = rr*sin(beta) - d*sin(beta+Theta) + ss*cos(gamma) - yb",
    "0 = rr*cos(beta) - d*cos(beta+Theta) - e*sin(Phi+delta) - zt*cos(delta) - xa",
    "0 = rr*sin(beta) - d*sin(beta+Theta) + e*cos(Phi+delta) - zt*sin(delta) - ya",
    "0 = rr*cos(beta) - d*cos(beta+Theta) - zf*cos(Omega+epsilon) - u*sin(epsilon) - xa",
    "0 = rr*sin(beta) - d*sin(beta+Theta) - zf*sin(Omega+epsilon) + u*cos(epsilon) - ya"};

as::Angles<double> angles_of(const Evaluation& e, const std::array<Var, 7>& vars) {
  as::Angles<double> out{};
  for (std::size_t k = 0; k < as::kBodies; ++k) out[k] = e.x(vars[k]);
  return out;
}

/// The angular velocities w_<angle> both forms have, declared through the model's function.
template <class DeclareVariable>
std::array<Var, 7> declare_velocities(DeclareVariable&& variable) {
  std::array<Var, 7> w;
  for (std::size_t k = 0; k < as::kBodies; ++k) {
    w[k] = variable(VariableInfo{.name = fmt::format("w_{}", as::kAngleNames[k]),
                                 .unit = "rad/s",
                                 .nominal = kAngularVelocityNominal,
                                 .der_unit = "rad/s2"});
  }
  return w;
}

/// The joint forces lambda1..lambda6, their start values the test set's consistent ones.
template <class DeclareVariable>
std::array<Var, 6> declare_joint_forces(DeclareVariable&& variable) {
  std::array<Var, 6> lambda;
  for (std::size_t i = 0; i < as::kLoopRows; ++i) {
    lambda[i] = variable(VariableInfo{.name = fmt::format("lambda{}", i + 1),
                                      .unit = "N",
                                      .start = as::kStartJointForces[i],
                                      .nominal = kJointForceNominal,
                                      .der_unit = "N/s"});
  }
  return lambda;
}

/// The kinematic rows der(q) = w.
template <class DeclareEquation>
std::array<Eq, 7> declare_kinematics(DeclareEquation&& equation) {
  std::array<Eq, 7> rows;
  for (std::size_t k = 0; k < as::kBodies; ++k) {
    rows[k] = equation(fmt::format("der({0}) = w_{0}", as::kAngleNames[k]));
  }
  return rows;
}

}  // namespace

namespace andrews_squeezer {

double spring_energy(const AndrewsSqueezerParameters& p, const Angles<double>& q) {
  const double dx = p.xb_m + p.sd_m * std::cos(q[2]) + p.sc_m * std::sin(q[2]) - p.xc_m;
  const double dy = p.yb_m + p.sd_m * std::sin(q[2]) - p.sc_m * std::cos(q[2]) - p.yc_m;
  const double stretch = std::hypot(dx, dy) - p.spring_length_m;
  return 0.5 * p.spring_stiffness_npm * stretch * stretch;
}

double kinetic_energy(const AndrewsSqueezerParameters& p, const Angles<double>& q,
                      const Angles<double>& w) {
  const Angles<double> momentum = inertia_torques(p, configuration(p, q), w);
  double twice = 0.0;
  for (std::size_t k = 0; k < kBodies; ++k) twice += w[k] * momentum[k];
  return 0.5 * twice;
}

}  // namespace andrews_squeezer

AndrewsSqueezer::AndrewsSqueezer(AndrewsSqueezerParameters p)
    : PhysicsModelOf("andrews_squeezer"), p_(p) {
  detail::declare_fields<P>(kFields, p_,
                            [this](ParameterInfo i) { declare_parameter(std::move(i)); });
  for (std::size_t k = 0; k < as::kBodies; ++k) {
    // The crank's angle is the one the test set's start holds; the loops then fix the others.
    q_[k] = declare_variable({.name = as::kAngleNames[k],
                              .unit = "rad",
                              .start = as::kStartAngles[k],
                              .fixed = k == 0,
                              .der_unit = "rad/s"});
  }
  set_start(q_[1], as::kStartAngles[1] + p_.theta_offset_rad);
  const auto variable = [this](const VariableInfo& v) { return declare_variable(v); };
  w_ = declare_velocities(variable);
  lambda_ = declare_joint_forces(variable);
  kinematics_ =
      declare_kinematics([this](const std::string& name) { return declare_equation(name); });
  for (std::size_t k = 0; k < as::kBodies; ++k) {
    motion_[k] = declare_equation(
        fmt::format("M(q)*der(w) = f(q,w) - G(q)^T*lambda, row {} (G = dg/dq of the loop rows)",
                    as::kAngleNames[k]));
  }
  for (std::size_t i = 0; i < as::kLoopRows; ++i) {
    loops_[i] = declare_equation(kLoopNames[i], RowKind::kConstraint);
  }
  kinetic_energy_ = declare_output("kinetic_energy", "J");
  spring_energy_ = declare_output("spring_energy", "J");
}

void AndrewsSqueezer::parameters_changed() {
  p_ = detail::read_fields<P>(kFields, structure(), p_);
  set_start(q_[1], as::kStartAngles[1] + p_.theta_offset_rad);
}

void AndrewsSqueezer::outputs(Evaluation& e) const {
  const as::Angles<double> q = angles_of(e, q_);
  e.set(kinetic_energy_, as::kinetic_energy(p_, q, angles_of(e, w_)));
  e.set(spring_energy_, as::spring_energy(p_, q));
}

AndrewsSqueezerIndex1::AndrewsSqueezerIndex1(AndrewsSqueezerParameters p)
    : PhysicsModelOf("andrews_squeezer_index1"), p_(p) {
  if (p_.theta_offset_rad != 0.0) {
    throw ModelError(fmt::format(
        "model 'andrews_squeezer_index1': theta_offset_rad must be 0, got {}: the index-1 form "
        "holds the loops only through their accelerations and cannot move its start onto them",
        p_.theta_offset_rad));
  }
  detail::declare_fields<P>(std::span(kFields).first<kIndex1Fields>(), p_,
                            [this](ParameterInfo i) { declare_parameter(std::move(i)); });
  for (std::size_t k = 0; k < as::kBodies; ++k) {
    q_[k] = declare_variable({.name = as::kAngleNames[k],
                              .unit = "rad",
                              .start = as::kStartAngles[k],
                              .der_unit = "rad/s"});
  }
  const auto variable = [this](const VariableInfo& v) { return declare_variable(v); };
  w_ = declare_velocities(variable);
  for (std::size_t k = 0; k < as::kBodies; ++k) {
    a_[k] = declare_variable({.name = fmt::format("a_{}", as::kAngleNames[k]),
                              .unit = "rad/s2",
                              .start = as::kStartAccelerations[k],
                              .nominal = kAngularAccelerationNominal,
                              .der_unit = "rad/s3"});
  }
  lambda_ = declare_joint_forces(variable);
  kinematics_ =
      declare_kinematics([this](const std::string& name) { return declare_equation(name); });
  for (std::size_t k = 0; k < as::kBodies; ++k) {
    accelerations_[k] = declare_equation(fmt::format("der(w_{0}) = a_{0}", as::kAngleNames[k]));
  }
  for (std::size_t k = 0; k < as::kBodies; ++k) {
    motion_[k] = declare_equation(
        fmt::format("M(q)*a = f(q,w) - G(q)^T*lambda, row {} (G = dg/dq of the loops)",
                    as::kAngleNames[k]),
        RowKind::kConstraint);
  }
  for (std::size_t i = 0; i < as::kLoopRows; ++i) {
    loops_[i] =
        declare_equation(fmt::format("0 = G{0}(q)*a + g{0}''(q,w), the second derivative of {1}",
                                     i + 1, kLoopNames[i]),
                         RowKind::kConstraint);
  }
  kinetic_energy_ = declare_output("kinetic_energy", "J");
  spring_energy_ = declare_output("spring_energy", "J");
}

void AndrewsSqueezerIndex1::parameters_changed() {
  p_ = detail::read_fields<P>(std::span(kFields).first<kIndex1Fields>(), structure(), p_);
}

void AndrewsSqueezerIndex1::outputs(Evaluation& e) const {
  const as::Angles<double> q = angles_of(e, q_);
  e.set(kinetic_energy_, as::kinetic_energy(p_, q, angles_of(e, w_)));
  e.set(spring_energy_, as::spring_energy(p_, q));
}

std::unique_ptr<IndexReducedModel> make_andrews_squeezer(AndrewsSqueezerParameters p) {
  return std::make_unique<IndexReducedModel>(std::make_unique<AndrewsSqueezer>(p));
}

}  // namespace hdae::models
