#include "hdae/models/ideal_clutch.hpp"

#include <array>
#include <utility>

#include <fmt/format.h>

#include "hdae/errors.hpp"
#include "parameter_fields.hpp"

namespace hdae::models {

namespace {

using Field = detail::ParameterField<IdealClutchParameters>;
using P = IdealClutchParameters;
const std::array<Field, 10> kFields = {{
    {{.name = "V0", .unit = "V", .description = "source voltage"},
     [](P& p) -> double& { return p.source_voltage_v; }},
    {{.name = "J1", .unit = "kg.m2", .min = detail::kPositive, .description = "inertia of shaft 1"},
     [](P& p) -> double& { return p.inertia1_kgm2; }},
    {{.name = "J2", .unit = "kg.m2", .min = detail::kPositive, .description = "inertia of shaft 2"},
     [](P& p) -> double& { return p.inertia2_kgm2; }},
    {{.name = "R", .unit = "Ohm", .min = detail::kPositive, .description = "resistance"},
     [](P& p) -> double& { return p.resistance_ohm; }},
    {{.name = "C", .unit = "F", .min = detail::kPositive, .description = "capacitance"},
     [](P& p) -> double& { return p.capacitance_f; }},
    {{.name = "k", .unit = "N.m/A", .description = "motor constant (emf constant)"},
     [](P& p) -> double& { return p.emf_constant_nmpa; }},
    {{.name = "w1_start", .unit = "rad/s", .description = "speed of shaft 1 at t0-"},
     [](P& p) -> double& { return p.w1_start_radps; }},
    {{.name = "w2_start", .unit = "rad/s", .description = "speed of shaft 2 at t0-"},
     [](P& p) -> double& { return p.w2_start_radps; }},
    {{.name = "release", .unit = "s", .description = "time the clutch opens"},
     [](P& p) -> double& { return p.release_s; }},
    {{.name = "engage", .unit = "s", .description = "time the clutch closes again (> release)"},
     [](P& p) -> double& { return p.engage_s; }},
}};

void check(const IdealClutchParameters& p) {
  if (!(p.engage_s > p.release_s)) {
    throw ModelError(fmt::format(
        "model 'ideal_clutch': parameter 'engage' ({} s) must be > parameter 'release' ({} s)",
        p.engage_s, p.release_s));
  }
}

}  // namespace

IdealClutch::IdealClutch(IdealClutchParameters p) : Model("ideal_clutch"), p_(p) {
  detail::declare_fields<P>(kFields, p_,
                            [this](ParameterInfo i) { declare_parameter(std::move(i)); });
  check(p_);
  w1_ = declare_variable({.name = "w1",
                          .unit = "rad/s",
                          .start = p_.w1_start_radps,
                          .nominal = 10.0,
                          .der_unit = "rad/s2"});
  w2_ = declare_variable({.name = "w2",
                          .unit = "rad/s",
                          .start = p_.w2_start_radps,
                          .nominal = 10.0,
                          .der_unit = "rad/s2"});
  tau_int_ =
      declare_variable({.name = "tau_int", .unit = "N.m.s", .der_name = "tau", .der_unit = "N.m"});
  shaft1_ = declare_equation("J1*der(w1) = k*(i_R - i_C) - tau");
  shaft2_ = declare_equation("J2*der(w2) = tau");
  // Engaged at t0: the row starts as the constraint (ModiaMath's is_fc[3] = true).
  clutch_ = declare_equation("engaged: 0 = w2 - w1; released: 0 = tau", RowKind::kConstraint);
  capacitor_voltage_ = declare_output("u_C", "V");
  capacitor_current_ = declare_output("i_C", "A");
  resistor_current_ = declare_output("i_R", "A");
  engaged_out_ = declare_output("engaged");
  release_ = declare_time_event("release");
  engage_ = declare_time_event("engage");
}

void IdealClutch::parameters_changed() {
  const IdealClutchParameters p = detail::read_fields<P>(kFields, structure(), p_);
  check(p);
  p_ = p;
  set_start(w1_, p_.w1_start_radps);
  set_start(w2_, p_.w2_start_radps);
}

double IdealClutch::effective_inertia1_kgm2() const {
  return p_.inertia1_kgm2 + p_.emf_constant_nmpa * p_.emf_constant_nmpa * p_.capacitance_f;
}

void IdealClutch::evaluate(Evaluation& e) {
  const double k = p_.emf_constant_nmpa;
  const double w1 = e.x(w1_);
  const double tau = e.der(tau_int_);
  const double u_c = k * w1;
  const double i_c = p_.capacitance_f * k * e.der(w1_);
  const double i_r = (p_.source_voltage_v - u_c) / p_.resistance_ohm;
  const double tau_emf = k * (i_r - i_c);
  e.set(shaft1_, p_.inertia1_kgm2 * e.der(w1_) - (tau_emf - tau));
  e.set(shaft2_, p_.inertia2_kgm2 * e.der(w2_) - tau);
  e.set(clutch_, engaged_ ? e.x(w2_) - w1 : tau);
  if (e.wants_outputs()) {
    e.set(capacitor_voltage_, u_c);
    e.set(capacitor_current_, i_c);
    e.set(resistor_current_, i_r);
    e.set(engaged_out_, engaged_ ? 1.0 : 0.0);
  }
}

void IdealClutch::on_event(EventContext& event) {
  if (event.is_initial()) {
    // engaged = t < release_s or t >= engage_s, evaluated at t0.
    engaged_ = event.t() < p_.release_s || event.t() >= p_.engage_s;
    if (event.t() < p_.release_s) event.schedule(release_, p_.release_s);
    if (event.t() < p_.engage_s) event.schedule(engage_, p_.engage_s);
  }
  if (event.fired(release_)) engaged_ = false;
  if (event.fired(engage_)) engaged_ = true;
  // Engaging turns the clutch row into the constraint w2 = w1; the jump solve then finds the
  // angular impulse (the jump of tau_int). Releasing makes it the f_d row tau = 0: no impulse.
  event.set_row_kind(clutch_, engaged_ ? RowKind::kConstraint : RowKind::kDifferential);
}

}  // namespace hdae::models
