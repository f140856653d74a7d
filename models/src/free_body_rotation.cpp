#include "hdae/models/free_body_rotation.hpp"

#include <cmath>
#include <numbers>
#include <utility>

#include <fmt/format.h>

#include "hdae/errors.hpp"
#include "parameter_fields.hpp"

namespace hdae::models {

namespace {

using P = FreeBodyRotationParameters;
const std::array<detail::ParameterField<P>, 19> kFields = {{
    {{.name = "I1",
      .unit = "kg.m2",
      .min = detail::kPositive,
      .description = "principal inertia 1"},
     [](P& p) -> double& { return p.inertia_kgm2[0]; }},
    {{.name = "I2",
      .unit = "kg.m2",
      .min = detail::kPositive,
      .description = "principal inertia 2"},
     [](P& p) -> double& { return p.inertia_kgm2[1]; }},
    {{.name = "I3",
      .unit = "kg.m2",
      .min = detail::kPositive,
      .description = "principal inertia 3"},
     [](P& p) -> double& { return p.inertia_kgm2[2]; }},
    {{.name = "A1", .unit = "N.m", .description = "amplitude of torque u1"},
     [](P& p) -> double& { return p.torque_amplitude_nm[0]; }},
    {{.name = "A2", .unit = "N.m", .description = "amplitude of torque u2"},
     [](P& p) -> double& { return p.torque_amplitude_nm[1]; }},
    {{.name = "A3", .unit = "N.m", .description = "amplitude of torque u3"},
     [](P& p) -> double& { return p.torque_amplitude_nm[2]; }},
    {{.name = "f1", .unit = "Hz", .description = "frequency of torque u1"},
     [](P& p) -> double& { return p.torque_frequency_hz[0]; }},
    {{.name = "f2", .unit = "Hz", .description = "frequency of torque u2"},
     [](P& p) -> double& { return p.torque_frequency_hz[1]; }},
    {{.name = "f3", .unit = "Hz", .description = "frequency of torque u3"},
     [](P& p) -> double& { return p.torque_frequency_hz[2]; }},
    {{.name = "phase1", .unit = "rad", .description = "phase of torque u1"},
     [](P& p) -> double& { return p.torque_phase_rad[0]; }},
    {{.name = "phase2", .unit = "rad", .description = "phase of torque u2"},
     [](P& p) -> double& { return p.torque_phase_rad[1]; }},
    {{.name = "phase3", .unit = "rad", .description = "phase of torque u3"},
     [](P& p) -> double& { return p.torque_phase_rad[2]; }},
    {{.name = "Q1_start", .description = "quaternion component 1 at t0- (normalised at t0)"},
     [](P& p) -> double& { return p.q_start[0]; }},
    {{.name = "Q2_start", .description = "quaternion component 2 at t0- (normalised at t0)"},
     [](P& p) -> double& { return p.q_start[1]; }},
    {{.name = "Q3_start", .description = "quaternion component 3 at t0- (normalised at t0)"},
     [](P& p) -> double& { return p.q_start[2]; }},
    {{.name = "Q4_start", .description = "quaternion component 4 at t0- (normalised at t0)"},
     [](P& p) -> double& { return p.q_start[3]; }},
    {{.name = "w1_start", .unit = "rad/s", .description = "angular velocity 1 at t0"},
     [](P& p) -> double& { return p.w_start_radps[0]; }},
    {{.name = "w2_start", .unit = "rad/s", .description = "angular velocity 2 at t0"},
     [](P& p) -> double& { return p.w_start_radps[1]; }},
    {{.name = "w3_start", .unit = "rad/s", .description = "angular velocity 3 at t0"},
     [](P& p) -> double& { return p.w_start_radps[2]; }},
}};

void check(const FreeBodyRotationParameters& p) {
  double q_norm2 = 0.0;
  for (const double q : p.q_start) q_norm2 += q * q;
  if (!(q_norm2 > 0.0)) {
    throw ModelError(
        "model 'free_body_rotation': parameters Q1_start..Q4_start must not all be zero (the "
        "start quaternion is normalised)");
  }
}

}  // namespace

FreeBodyRotation::FreeBodyRotation(FreeBodyRotationParameters p)
    : Model("free_body_rotation"), p_(p) {
  detail::declare_fields<P>(kFields, p_,
                            [this](ParameterInfo i) { declare_parameter(std::move(i)); });
  check(p_);

  for (std::size_t i = 0; i < 4; ++i) {
    q_[i] = declare_variable(
        {.name = fmt::format("Q{}", i + 1), .start = p_.q_start[i], .der_unit = "1/s"});
  }
  for (std::size_t i = 0; i < 3; ++i) {
    w_[i] = declare_variable({.name = fmt::format("w{}", i + 1),
                              .unit = "rad/s",
                              .start = p_.w_start_radps[i],
                              .der_unit = "rad/s2"});
  }
  mue_int_ = declare_variable({.name = "mue_int", .der_name = "mue", .der_unit = "1/s"});
  kinematics_[0] = declare_equation("der(Q1) = (Q4*w1 - Q3*w2 + Q2*w3)/2 - mue*Q1");
  kinematics_[1] = declare_equation("der(Q2) = (Q3*w1 + Q4*w2 - Q1*w3)/2 - mue*Q2");
  kinematics_[2] = declare_equation("der(Q3) = (-Q2*w1 + Q1*w2 + Q4*w3)/2 - mue*Q3");
  kinematics_[3] = declare_equation("der(Q4) = -(Q1*w1 + Q2*w2 + Q3*w3)/2 - mue*Q4");
  euler_[0] = declare_equation("I1*der(w1) = (I2 - I3)*w2*w3 + u1");
  euler_[1] = declare_equation("I2*der(w2) = (I3 - I1)*w3*w1 + u2");
  euler_[2] = declare_equation("I3*der(w3) = (I1 - I2)*w1*w2 + u3");
  normalisation_ = declare_equation("0 = Q.Q - 1", RowKind::kConstraint);
  norm_ = declare_output("|Q|");
}

void FreeBodyRotation::parameters_changed() {
  const FreeBodyRotationParameters p = detail::read_fields<P>(kFields, structure(), p_);
  check(p);
  p_ = p;
  for (std::size_t i = 0; i < 4; ++i) set_start(q_[i], p_.q_start[i]);
  for (std::size_t i = 0; i < 3; ++i) set_start(w_[i], p_.w_start_radps[i]);
}

void FreeBodyRotation::evaluate(Evaluation& e) {
  const double q1 = e.x(q_[0]);
  const double q2 = e.x(q_[1]);
  const double q3 = e.x(q_[2]);
  const double q4 = e.x(q_[3]);
  const double w1 = e.x(w_[0]);
  const double w2 = e.x(w_[1]);
  const double w3 = e.x(w_[2]);
  const double mue = e.der(mue_int_);
  // der(Q) = 1/2 Q (x) (w, 0): vector part (Q4 w + Qv x w)/2, scalar part -(Qv . w)/2.
  const std::array<double, 4> rate = {
      (q4 * w1 - q3 * w2 + q2 * w3) / 2.0, (q3 * w1 + q4 * w2 - q1 * w3) / 2.0,
      (-q2 * w1 + q1 * w2 + q4 * w3) / 2.0, -(q1 * w1 + q2 * w2 + q3 * w3) / 2.0};
  const std::array<double, 4> q = {q1, q2, q3, q4};
  for (std::size_t i = 0; i < 4; ++i) {
    e.set(kinematics_[i], e.der(q_[i]) - rate[i] + mue * q[i]);
  }
  const auto& I = p_.inertia_kgm2;
  const std::array<double, 3> gyroscopic = {(I[1] - I[2]) * w2 * w3, (I[2] - I[0]) * w3 * w1,
                                            (I[0] - I[1]) * w1 * w2};
  for (std::size_t i = 0; i < 3; ++i) {
    const double u = p_.torque_amplitude_nm[i] *
                     std::sin(2.0 * std::numbers::pi * p_.torque_frequency_hz[i] * e.t() +
                              p_.torque_phase_rad[i]);
    e.set(euler_[i], I[i] * e.der(w_[i]) - gyroscopic[i] - u);
  }
  const double norm2 = q1 * q1 + q2 * q2 + q3 * q3 + q4 * q4;
  e.set(normalisation_, norm2 - 1.0);
  if (e.wants_outputs()) e.set(norm_, std::sqrt(norm2));
}

}  // namespace hdae::models
