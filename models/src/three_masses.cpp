#include "hdae/models/three_masses.hpp"

#include <array>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "hdae/errors.hpp"
#include "parameter_fields.hpp"

namespace hdae::models {

namespace {

using P = ThreeMassesParameters;
using Field = detail::ParameterField<P>;
const std::array<Field, 12> kFields = {{
    {{.name = "m1", .unit = "kg", .min = detail::kPositive, .description = "mass 1"},
     [](P& p) -> double& { return p.masses_kg[0]; }},
    {{.name = "m2", .unit = "kg", .min = detail::kPositive, .description = "mass 2"},
     [](P& p) -> double& { return p.masses_kg[1]; }},
    {{.name = "m3", .unit = "kg", .min = detail::kPositive, .description = "mass 3"},
     [](P& p) -> double& { return p.masses_kg[2]; }},
    {{.name = "ci1",
      .min = detail::kPositive,
      .max = 1.0,
      .description = "restitution of end stop 1; > 0, as a plastic stop would keep its masses in "
                     "contact, which this model does not represent"},
     [](P& p) -> double& { return p.restitution[0]; }},
    {{.name = "ci2",
      .min = detail::kPositive,
      .max = 1.0,
      .description = "restitution of end stop 2; > 0, as a plastic stop would keep its masses in "
                     "contact, which this model does not represent"},
     [](P& p) -> double& { return p.restitution[1]; }},
    {{.name = "d", .unit = "m", .min = 0.0, .description = "contact distance of both end stops"},
     [](P& p) -> double& { return p.contact_distance_m; }},
    {{.name = "s1_start", .unit = "m", .description = "position of mass 1 at t0"},
     [](P& p) -> double& { return p.s_start_m[0]; }},
    {{.name = "s2_start", .unit = "m", .description = "position of mass 2 at t0"},
     [](P& p) -> double& { return p.s_start_m[1]; }},
    {{.name = "s3_start", .unit = "m", .description = "position of mass 3 at t0"},
     [](P& p) -> double& { return p.s_start_m[2]; }},
    {{.name = "v1_start", .unit = "m/s", .description = "velocity of mass 1 at t0"},
     [](P& p) -> double& { return p.v_start_mps[0]; }},
    {{.name = "v2_start", .unit = "m/s", .description = "velocity of mass 2 at t0"},
     [](P& p) -> double& { return p.v_start_mps[1]; }},
    {{.name = "v3_start", .unit = "m/s", .description = "velocity of mass 3 at t0"},
     [](P& p) -> double& { return p.v_start_mps[2]; }},
}};

/// model: the name the model runs under (either form).
void check(const ThreeMassesParameters& p, const std::string& model) {
  for (std::size_t k = 0; k < 2; ++k) {
    if (!(p.s_start_m[k + 1] - p.s_start_m[k] > p.contact_distance_m)) {
      throw ModelError(fmt::format(
          "model '{6}': end stop {0} must start open: parameters s{2}_start - s{1}_start "
          "must be > d, got s{1}_start = {3}, s{2}_start = {4}, d = {5}",
          k + 1, k + 1, k + 2, p.s_start_m[k], p.s_start_m[k + 1], p.contact_distance_m, model));
    }
  }
}

}  // namespace

ThreeMasses::ThreeMasses(ThreeMassesParameters p, ImpulseForm form)
    : Model(form == ImpulseForm::kIntegralStates ? "three_masses" : "three_masses_impact"),
      p_(p),
      form_(form) {
  detail::declare_fields<P>(kFields, p_,
                            [this](ParameterInfo i) { declare_parameter(std::move(i)); });
  check(p_, structure().name);
  const bool integral = form_ == ImpulseForm::kIntegralStates;
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
    force_[k] = integral ? declare_variable({.name = fmt::format("p_int{}", k + 1),
                                             .unit = "N.s",
                                             .der_name = fmt::format("F{}", k + 1),
                                             .der_unit = "N"})
                         : declare_variable({.name = fmt::format("F{}", k + 1), .unit = "N"});
  }
  for (std::size_t i = 0; i < 3; ++i) {
    kinematics_[i] = declare_equation(fmt::format("der(s{0}) = v{0}", i + 1));
  }
  momentum_[0] = declare_equation("m1*der(v1) = -F1");
  momentum_[1] = declare_equation("m2*der(v2) = F1 - F2");
  momentum_[2] = declare_equation("m3*der(v3) = F2");
  for (std::size_t k = 0; k < 2; ++k) {
    stop_[k] = declare_equation(
        fmt::format("end stop {0} impact{3}: 0 = v{2} - v{1} + ci{0}*(v{2}^- - v{1}^-); "
                    "otherwise: 0 = F{0}",
                    k + 1, k + 1, k + 2, integral ? "" : fmt::format(" (F{} impulsive)", k + 1)),
        integral ? RowKind::kDifferential : RowKind::kConstraint);
  }
  for (std::size_t k = 0; k < 2; ++k) {
    // Only closing matters (gap falling through 0); opening needs no event.
    stop_closed_[k] = declare_crossing(fmt::format("s{} - s{} - d < 0", k + 2, k + 1),
                                       CrossingDirection::kRising, gap_nominal());
  }
  for (std::size_t k = 0; k < 2; ++k) {
    gap_[k] = declare_output(fmt::format("gap{}", k + 1), "m");
  }
  total_momentum_ = declare_output("momentum", "N.s");
  kinetic_energy_ = declare_output("kinetic_energy", "J");
}

void ThreeMasses::parameters_changed() {
  const ThreeMassesParameters p = detail::read_fields<P>(kFields, structure(), p_);
  check(p, structure().name);
  p_ = p;
  for (std::size_t i = 0; i < 3; ++i) {
    set_start(s_[i], p_.s_start_m[i]);
    set_start(v_[i], p_.v_start_mps[i]);
  }
  for (const Crossing c : stop_closed_) crossing(c).nominal = gap_nominal();
}

void ThreeMasses::reset() {
  impact_pass_ = {false, false};
  impacts_ = {0, 0};
}

void ThreeMasses::evaluate(Evaluation& e) {
  std::array<double, 2> gap{};
  for (std::size_t k = 0; k < 2; ++k) {
    gap[k] = e.x(s_[k + 1]) - e.x(s_[k]) - p_.contact_distance_m;
    e.negative(stop_closed_[k], gap[k]);
  }
  const bool integral = form_ == ImpulseForm::kIntegralStates;
  const double f1 = integral ? e.der(force_[0]) : e.x(force_[0]);
  const double f2 = integral ? e.der(force_[1]) : e.x(force_[1]);
  const std::array<double, 3> net_force = {-f1, f1 - f2, f2};
  for (std::size_t i = 0; i < 3; ++i) {
    e.set(kinematics_[i], e.der(s_[i]) - e.x(v_[i]));
    e.set(momentum_[i], p_.masses_kg[i] * e.der(v_[i]) - net_force[i]);
  }
  for (std::size_t k = 0; k < 2; ++k) {
    const double relative_velocity = e.x(v_[k + 1]) - e.x(v_[k]);
    // The law on the velocities before the jump (x^-), which the jump solve gives.
    const double before = e.left_limit(v_[k + 1]) - e.left_limit(v_[k]);
    e.set(stop_[k],
          impact_pass_[k] ? relative_velocity + p_.restitution[k] * before : (k == 0 ? f1 : f2));
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
  const bool integral = form_ == ImpulseForm::kIntegralStates;
  for (std::size_t k = 0; k < 2; ++k) {
    if (impact_pass_[k]) {
      // The previous pass applied the impulse; the stop is passive again.
      impact_pass_[k] = false;
      if (integral) event.set_row_kind(stop_[k], RowKind::kDifferential);
    }
  }
  for (std::size_t k = 0; k < 2; ++k) {
    const double relative_velocity = event.x(v_[k + 1]) - event.x(v_[k]);
    if (event.rose(stop_closed_[k]) && relative_velocity < 0.0) {
      impact_pass_[k] = true;
      ++impacts_[k];
      if (integral) {
        event.set_row_kind(stop_[k], RowKind::kConstraint);
        event.request_iteration();
      } else {
        event.impulse(force_[k]);  // implies the next pass, which returns to F_k = 0
      }
    }
  }
}

}  // namespace hdae::models
