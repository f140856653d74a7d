#include "hdae/models/colliding_masses.hpp"

#include <array>
#include <utility>

#include <fmt/format.h>

#include "hdae/errors.hpp"
#include "parameter_fields.hpp"

namespace hdae::models {

namespace {

using P = CollidingMassesParameters;
const std::array<detail::ParameterField<P>, 8> kFields = {{
    {{.name = "m1", .unit = "kg", .min = detail::kPositive, .description = "mass 1 (behind)"},
     [](P& p) -> double& { return p.mass1_kg; }},
    {{.name = "m2", .unit = "kg", .min = detail::kPositive, .description = "mass 2 (ahead)"},
     [](P& p) -> double& { return p.mass2_kg; }},
    {{.name = "e",
      .min = 0.0,
      .max = 1.0,
      .description = "coefficient of restitution; 0: plastic impact, the masses stick"},
     [](P& p) -> double& { return p.restitution; }},
    {{.name = "d",
      .unit = "m",
      .min = 0.0,
      .description = "contact distance: contact at s2 - s1 = d"},
     [](P& p) -> double& { return p.contact_distance_m; }},
    {{.name = "s1_start", .unit = "m", .description = "position of mass 1 at t0"},
     [](P& p) -> double& { return p.s1_start_m; }},
    {{.name = "s2_start", .unit = "m", .description = "position of mass 2 at t0 (> s1_start + d)"},
     [](P& p) -> double& { return p.s2_start_m; }},
    {{.name = "v1_start", .unit = "m/s", .description = "velocity of mass 1 at t0"},
     [](P& p) -> double& { return p.v1_start_mps; }},
    {{.name = "v2_start", .unit = "m/s", .description = "velocity of mass 2 at t0"},
     [](P& p) -> double& { return p.v2_start_mps; }},
}};

void check(const CollidingMassesParameters& p, ImpulseForm form) {
  if (form == ImpulseForm::kImpactSources && !(p.restitution > 0.0)) {
    throw ModelError(fmt::format(
        "model 'colliding_masses_impact': parameter e must be > 0 (masses that stick would "
        "need a persistent contact constraint, an index-2 mode), got {}",
        p.restitution));
  }
  if (!(p.s2_start_m - p.s1_start_m > p.contact_distance_m)) {
    throw ModelError(fmt::format(
        "model '{}': the masses must start apart: parameters s2_start - s1_start "
        "must be > d, got s1_start = {}, s2_start = {}, d = {}",
        form == ImpulseForm::kIntegralStates ? "colliding_masses" : "colliding_masses_impact",
        p.s1_start_m, p.s2_start_m, p.contact_distance_m));
  }
}

}  // namespace

CollidingMasses::CollidingMasses(CollidingMassesParameters p, ImpulseForm form)
    : Model(form == ImpulseForm::kIntegralStates ? "colliding_masses" : "colliding_masses_impact"),
      p_(p),
      form_(form) {
  detail::declare_fields<P>(kFields, p_,
                            [this](ParameterInfo i) { declare_parameter(std::move(i)); });
  check(p_, form_);
  const bool integral = form_ == ImpulseForm::kIntegralStates;
  s1_ = declare_variable({.name = "s1", .unit = "m", .start = p_.s1_start_m, .der_unit = "m/s"});
  s2_ = declare_variable({.name = "s2", .unit = "m", .start = p_.s2_start_m, .der_unit = "m/s"});
  v1_ =
      declare_variable({.name = "v1", .unit = "m/s", .start = p_.v1_start_mps, .der_unit = "m/s2"});
  v2_ =
      declare_variable({.name = "v2", .unit = "m/s", .start = p_.v2_start_mps, .der_unit = "m/s2"});
  force_ =
      integral
          ? declare_variable({.name = "p_int", .unit = "N.s", .der_name = "F", .der_unit = "N"})
          : declare_variable({.name = "F", .unit = "N"});
  kinematics1_ = declare_equation("der(s1) = v1");
  kinematics2_ = declare_equation("der(s2) = v2");
  momentum1_ = declare_equation("m1*der(v1) = -F");
  momentum2_ = declare_equation("m2*der(v2) = F");
  contact_ = integral ? declare_equation(
                            "impact: 0 = v2 - v1 + e*(v2^- - v1^-); stuck (e = 0): 0 = v2 - v1; "
                            "free: 0 = F")
                      : declare_equation(
                            "impact (F impulsive): 0 = v2 - v1 + e*(v2^- - v1^-); "
                            "free: 0 = F",
                            RowKind::kConstraint);
  // Only closing matters (gap falling through 0); separation needs no event.
  gap_closed_ = declare_crossing("s2 - s1 - d < 0", CrossingDirection::kRising, gap_nominal());
  gap_ = declare_output("gap", "m");
  momentum_ = declare_output("momentum", "N.s");
  kinetic_energy_ = declare_output("kinetic_energy", "J");
}

void CollidingMasses::parameters_changed() {
  const CollidingMassesParameters p = detail::read_fields<P>(kFields, structure(), p_);
  check(p, form_);
  p_ = p;
  set_start(s1_, p_.s1_start_m);
  set_start(s2_, p_.s2_start_m);
  set_start(v1_, p_.v1_start_mps);
  set_start(v2_, p_.v2_start_mps);
  crossing(gap_closed_).nominal = gap_nominal();
}

void CollidingMasses::reset() {
  contact_state_ = Contact::kOpen;
  impacts_ = 0;
}

void CollidingMasses::evaluate(Evaluation& e) {
  const double gap = e.x(s2_) - e.x(s1_) - p_.contact_distance_m;
  // Stuck masses keep the crossing closed (a constant far from its threshold): their gap stays
  // on the threshold, where it would only pick up integration noise.
  e.negative(gap_closed_, contact_state_ == Contact::kStuck ? -gap_nominal() : gap);
  const double v1 = e.x(v1_);
  const double v2 = e.x(v2_);
  const double force = form_ == ImpulseForm::kIntegralStates ? e.der(force_) : e.x(force_);
  e.set(kinematics1_, e.der(s1_) - v1);
  e.set(kinematics2_, e.der(s2_) - v2);
  e.set(momentum1_, p_.mass1_kg * e.der(v1_) + force);
  e.set(momentum2_, p_.mass2_kg * e.der(v2_) - force);
  switch (contact_state_) {
    case Contact::kOpen:
      e.set(contact_, force);
      break;
    case Contact::kImpact:
      // The law on the velocities before the jump (x^-), which the jump solve gives.
      e.set(contact_, v2 - v1 + p_.restitution * (e.left_limit(v2_) - e.left_limit(v1_)));
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
  const bool integral = form_ == ImpulseForm::kIntegralStates;
  if (contact_state_ == Contact::kImpact) {
    // The previous pass applied the impulse; from now on no contact force acts.
    contact_state_ = Contact::kOpen;
    if (integral) event.set_row_kind(contact_, RowKind::kDifferential);
  }
  if (contact_state_ == Contact::kOpen && event.rose(gap_closed_) &&
      event.x(v2_) - event.x(v1_) < 0.0) {
    ++impacts_;
    if (!integral) {
      contact_state_ = Contact::kImpact;
      event.impulse(force_);  // implies the next pass, which returns to F = 0
      return;
    }
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
