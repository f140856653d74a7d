#include "hdae/models/colliding_masses.hpp"

#include <fmt/format.h>

#include "hdae/errors.hpp"

namespace hdae::models {

CollidingMasses::CollidingMasses(CollidingMassesParameters p) : Model("colliding_masses"), p_(p) {
  if (!(p_.mass1_kg > 0.0) || !(p_.mass2_kg > 0.0)) {
    throw ModelError(fmt::format("CollidingMasses: masses must be > 0, got {} and {}", p_.mass1_kg,
                                 p_.mass2_kg));
  }
  if (!(p_.restitution >= 0.0 && p_.restitution <= 1.0)) {
    throw ModelError(
        fmt::format("CollidingMasses: restitution must lie in [0, 1], got {}", p_.restitution));
  }
  if (!(p_.contact_distance_m >= 0.0)) {
    throw ModelError(fmt::format("CollidingMasses: contact_distance_m must be >= 0, got {}",
                                 p_.contact_distance_m));
  }
  if (!(p_.s2_start_m - p_.s1_start_m > p_.contact_distance_m)) {
    throw ModelError(fmt::format(
        "CollidingMasses: the masses must start apart (s2 - s1 > d), got s1 = {}, s2 = {}, d = {}",
        p_.s1_start_m, p_.s2_start_m, p_.contact_distance_m));
  }
  s1_ = declare_variable({.name = "s1", .unit = "m", .start = p_.s1_start_m, .der_unit = "m/s"});
  s2_ = declare_variable({.name = "s2", .unit = "m", .start = p_.s2_start_m, .der_unit = "m/s"});
  v1_ =
      declare_variable({.name = "v1", .unit = "m/s", .start = p_.v1_start_mps, .der_unit = "m/s2"});
  v2_ =
      declare_variable({.name = "v2", .unit = "m/s", .start = p_.v2_start_mps, .der_unit = "m/s2"});
  p_int_ = declare_variable({.name = "p_int", .unit = "N.s", .der_name = "F", .der_unit = "N"});
  kinematics1_ = declare_equation("der(s1) = v1");
  kinematics2_ = declare_equation("der(s2) = v2");
  momentum1_ = declare_equation("m1*der(v1) = -F");
  momentum2_ = declare_equation("m2*der(v2) = F");
  contact_ = declare_equation(
      "impact: 0 = v2 - v1 + e*(v2^- - v1^-); stuck (e = 0): 0 = v2 - v1; free: 0 = F");
  // Only closing matters (gap falling through 0); separation needs no event.
  gap_closed_ = declare_crossing("s2 - s1 - d < 0", CrossingDirection::kRising, gap_nominal());
  gap_ = declare_output("gap", "m");
  momentum_ = declare_output("momentum", "N.s");
  kinetic_energy_ = declare_output("kinetic_energy", "J");
}

void CollidingMasses::reset() {
  contact_state_ = Contact::kOpen;
  v1_before_ = 0.0;
  v2_before_ = 0.0;
  impacts_ = 0;
}

void CollidingMasses::evaluate(Evaluation& e) {
  const double gap = e.x(s2_) - e.x(s1_) - p_.contact_distance_m;
  // Stuck masses keep the crossing closed (a constant far from its threshold): their gap stays
  // on the threshold, where it would only pick up integration noise.
  e.negative(gap_closed_, contact_state_ == Contact::kStuck ? -gap_nominal() : gap);
  const double v1 = e.x(v1_);
  const double v2 = e.x(v2_);
  const double force = e.der(p_int_);
  e.set(kinematics1_, e.der(s1_) - v1);
  e.set(kinematics2_, e.der(s2_) - v2);
  e.set(momentum1_, p_.mass1_kg * e.der(v1_) + force);
  e.set(momentum2_, p_.mass2_kg * e.der(v2_) - force);
  switch (contact_state_) {
    case Contact::kOpen:
      e.set(contact_, force);
      break;
    case Contact::kImpact:
      e.set(contact_, v2 - v1 + p_.restitution * (v2_before_ - v1_before_));
      break;
    case Contact::kStuck:
      e.set(contact_, v2 - v1);
      break;
  }
  if (e.wants_outputs()) {
    e.set(gap_, gap);
    e.set(momentum_, p_.mass1_kg * v1 + p_.mass2_kg * v2);
    e.set(kinetic_energy_, 0.5 * p_.mass1_kg * v1 * v1 + 0.5 * p_.mass2_kg * v2 * v2);
  }
}

void CollidingMasses::on_event(EventContext& event) {
  if (contact_state_ == Contact::kImpact) {
    // The previous pass applied the impulse; from now on no contact force acts.
    contact_state_ = Contact::kOpen;
    event.set_row_kind(contact_, RowKind::kDifferential);
  }
  if (contact_state_ == Contact::kOpen && event.rose(gap_closed_) &&
      event.x(v2_) - event.x(v1_) < 0.0) {
    v1_before_ = event.x(v1_);
    v2_before_ = event.x(v2_);
    ++impacts_;
    event.set_row_kind(contact_, RowKind::kConstraint);
    if (p_.restitution > 0.0) {
      contact_state_ = Contact::kImpact;
      event.request_iteration();
    } else {
      // Plastic: 0 = v2 - v1 is the restitution law with e = 0 and stays in force.
      contact_state_ = Contact::kStuck;
    }
  }
}

}  // namespace hdae::models
