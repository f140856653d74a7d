#include "hdae/models/three_masses.hpp"

#include <fmt/format.h>

#include "hdae/errors.hpp"

namespace hdae::models {

ThreeMasses::ThreeMasses(ThreeMassesParameters p) : Model("three_masses"), p_(p) {
  for (std::size_t i = 0; i < 3; ++i) {
    if (!(p_.masses_kg[i] > 0.0)) {
      throw ModelError(
          fmt::format("ThreeMasses: masses_kg[{}] must be > 0, got {}", i, p_.masses_kg[i]));
    }
  }
  for (std::size_t k = 0; k < 2; ++k) {
    if (!(p_.restitution[k] > 0.0 && p_.restitution[k] <= 1.0)) {
      throw ModelError(fmt::format(
          "ThreeMasses: restitution[{}] must lie in (0, 1], got {} (a plastic stop would keep "
          "its masses in contact, which this model does not represent)",
          k, p_.restitution[k]));
    }
    if (!(p_.s_start_m[k + 1] - p_.s_start_m[k] > p_.contact_distance_m)) {
      throw ModelError(fmt::format(
          "ThreeMasses: end stop {} must start open (s{} - s{} > d), got {} - {} with d = {}",
          k + 1, k + 2, k + 1, p_.s_start_m[k + 1], p_.s_start_m[k], p_.contact_distance_m));
    }
  }
  if (!(p_.contact_distance_m >= 0.0)) {
    throw ModelError(
        fmt::format("ThreeMasses: contact_distance_m must be >= 0, got {}", p_.contact_distance_m));
  }

  for (std::size_t i = 0; i < 3; ++i) {
    s_[i] = declare_variable({.name = fmt::format("s{}", i + 1),
                              .unit = "m",
                              .start = p_.s_start_m[i],
                              .der_unit = "m/s"});
  }
  for (std::size_t i = 0; i < 3; ++i) {
    v_[i] = declare_variable({.name = fmt::format("v{}", i + 1),
                              .unit = "m/s",
                              .start = p_.v_start_mps[i],
                              .der_unit = "m/s2"});
  }
  for (std::size_t k = 0; k < 2; ++k) {
    p_int_[k] = declare_variable({.name = fmt::format("p_int{}", k + 1),
                                  .unit = "N.s",
                                  .der_name = fmt::format("F{}", k + 1),
                                  .der_unit = "N"});
  }
  for (std::size_t i = 0; i < 3; ++i) {
    kinematics_[i] = declare_equation(fmt::format("der(s{0}) = v{0}", i + 1));
  }
  momentum_[0] = declare_equation("m1*der(v1) = -F1");
  momentum_[1] = declare_equation("m2*der(v2) = F1 - F2");
  momentum_[2] = declare_equation("m3*der(v3) = F2");
  for (std::size_t k = 0; k < 2; ++k) {
    stop_[k] = declare_equation(
        fmt::format("end stop {0} impact: 0 = v{2} - v{1} + ci{0}*(v{2}^- - v{1}^-); "
                    "otherwise: 0 = F{0}",
                    k + 1, k + 1, k + 2));
  }
  const double nominal = p_.contact_distance_m > 0.0 ? p_.contact_distance_m : 1.0;
  for (std::size_t k = 0; k < 2; ++k) {
    // Only closing matters (gap falling through 0); opening needs no event.
    stop_closed_[k] = declare_crossing(fmt::format("s{} - s{} - d < 0", k + 2, k + 1),
                                       CrossingDirection::kRising, nominal);
  }
  for (std::size_t k = 0; k < 2; ++k) {
    gap_[k] = declare_output(fmt::format("gap{}", k + 1), "m");
  }
  total_momentum_ = declare_output("momentum", "N.s");
  kinetic_energy_ = declare_output("kinetic_energy", "J");
}

void ThreeMasses::reset() {
  impact_pass_ = {false, false};
  relative_velocity_before_ = {0.0, 0.0};
  impacts_ = {0, 0};
}

void ThreeMasses::evaluate(Evaluation& e) {
  std::array<double, 2> gap{};
  for (std::size_t k = 0; k < 2; ++k) {
    gap[k] = e.x(s_[k + 1]) - e.x(s_[k]) - p_.contact_distance_m;
    e.negative(stop_closed_[k], gap[k]);
  }
  const double f1 = e.der(p_int_[0]);
  const double f2 = e.der(p_int_[1]);
  const std::array<double, 3> net_force = {-f1, f1 - f2, f2};
  for (std::size_t i = 0; i < 3; ++i) {
    e.set(kinematics_[i], e.der(s_[i]) - e.x(v_[i]));
    e.set(momentum_[i], p_.masses_kg[i] * e.der(v_[i]) - net_force[i]);
  }
  for (std::size_t k = 0; k < 2; ++k) {
    const double relative_velocity = e.x(v_[k + 1]) - e.x(v_[k]);
    e.set(stop_[k], impact_pass_[k]
                        ? relative_velocity + p_.restitution[k] * relative_velocity_before_[k]
                        : e.der(p_int_[k]));
  }
  if (e.wants_outputs()) {
    double momentum = 0.0;
    double energy = 0.0;
    for (std::size_t i = 0; i < 3; ++i) {
      const double v = e.x(v_[i]);
      momentum += p_.masses_kg[i] * v;
      energy += 0.5 * p_.masses_kg[i] * v * v;
    }
    for (std::size_t k = 0; k < 2; ++k) e.set(gap_[k], gap[k]);
    e.set(total_momentum_, momentum);
    e.set(kinetic_energy_, energy);
  }
}

void ThreeMasses::on_event(EventContext& event) {
  for (std::size_t k = 0; k < 2; ++k) {
    if (impact_pass_[k]) {
      // The previous pass applied the impulse; the stop is passive again.
      impact_pass_[k] = false;
      event.set_row_kind(stop_[k], RowKind::kDifferential);
    }
  }
  for (std::size_t k = 0; k < 2; ++k) {
    const double relative_velocity = event.x(v_[k + 1]) - event.x(v_[k]);
    if (event.rose(stop_closed_[k]) && relative_velocity < 0.0) {
      relative_velocity_before_[k] = relative_velocity;
      impact_pass_[k] = true;
      ++impacts_[k];
      event.set_row_kind(stop_[k], RowKind::kConstraint);
      event.request_iteration();
    }
  }
}

}  // namespace hdae::models
