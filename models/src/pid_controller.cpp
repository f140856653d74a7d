#include "hdae/models/pid_controller.hpp"

#include <array>
#include <utility>

#include "hdae/index_reduction.hpp"
#include "parameter_fields.hpp"

namespace hdae::models {

namespace {

using P = PidControllerParameters;
const std::array<detail::ParameterField<P>, 11> kFields = {{
    {{.name = "m", .unit = "kg", .min = detail::kPositive, .description = "mass"},
     [](P& p) -> double& { return p.mass_kg; }},
    {{.name = "kP", .unit = "N/m", .description = "proportional gain"},
     [](P& p) -> double& { return p.kP_npm; }},
    {{.name = "kD", .unit = "N.s/m", .description = "derivative gain"},
     [](P& p) -> double& { return p.kD_nspm; }},
    {{.name = "kI", .unit = "N/(m.s)", .description = "integral gain"},
     [](P& p) -> double& { return p.kI_npms; }},
    {{.name = "x_set", .unit = "m", .description = "set point of the position"},
     [](P& p) -> double& { return p.x_set_m; }},
    {{.name = "F0", .unit = "N", .description = "constant part of the load F(t)"},
     [](P& p) -> double& { return p.load_n; }},
    {{.name = "F1", .unit = "N", .description = "amplitude of the load's sine"},
     [](P& p) -> double& { return p.load_amplitude_n; }},
    {{.name = "w", .unit = "rad/s", .description = "angular frequency of the load's sine"},
     [](P& p) -> double& { return p.load_frequency_radps; }},
    {{.name = "x_start", .unit = "m", .description = "position at t0 (held fixed)"},
     [](P& p) -> double& { return p.x_start_m; }},
    {{.name = "v_start", .unit = "m/s", .description = "velocity at t0"},
     [](P& p) -> double& { return p.v_start_mps; }},
    {{.name = "i_start", .unit = "m.s", .description = "integral of the error at t0"},
     [](P& p) -> double& { return p.i_start_ms; }},
}};

}  // namespace

const char* pid_model_name(PidForm form) {
  switch (form) {
    case PidForm::kAsWritten:
      return "pid_controller";
    case PidForm::kDerivativeSubstituted:
      return "pid_controller_der_substituted";
    case PidForm::kSubstituted:
      return "pid_controller_substituted";
    case PidForm::kHandReduced:
      break;
  }
  return "pid_controller_reduced";
}

PidController::PidController(PidForm form, PidControllerParameters p)
    : PhysicsModelOf(pid_model_name(form)), form_(form), p_(p) {
  detail::declare_fields<P>(kFields, p_,
                            [this](ParameterInfo i) { declare_parameter(std::move(i)); });
  // x is the position the modeller sets. The index-1 forms keep a state's start value anyway;
  // the index reduction must be told, or it would share the move e = x - x_set asks for
  // between x and e.
  x_ = declare_variable({.name = "x",
                         .unit = "m",
                         .start = p_.x_start_m,
                         .fixed = form_ == PidForm::kAsWritten,
                         .der_unit = "m/s"});
  v_ = declare_variable({.name = "v", .unit = "m/s", .start = p_.v_start_mps, .der_unit = "m/s2"});
  i_ = declare_variable({.name = "i", .unit = "m.s", .start = p_.i_start_ms, .der_unit = "m"});
  if (form_ == PidForm::kSubstituted) {
    error_ = declare_substitution({.name = "e", .unit = "m"});
  } else {
    // Its start value is a guess: e = x - x_set decides it.
    e_ = declare_variable({.name = "e", .unit = "m", .der_unit = "m/s"});
  }
  u_ = declare_variable({.name = "u", .unit = "N", .der_unit = "N/s"});
  if (form_ == PidForm::kDerivativeSubstituted) declare_derivative_substitution(e_);
  kinematics_ = declare_equation("der(x) = v");
  momentum_ = declare_equation("m*der(v) = F(t) - u");
  integral_ = declare_equation("der(i) = e");
  if (form_ != PidForm::kSubstituted) {
    error_row_ = declare_equation("e = x - x_set", RowKind::kConstraint);
  }
  control_ = declare_equation(form_ == PidForm::kHandReduced ? "u = kP*e + kD*der(x) + kI*i"
                                                             : "u = kP*e + kD*der(e) + kI*i");
  load_ = declare_output("F", "N");
}

void PidController::parameters_changed() {
  p_ = detail::read_fields<P>(kFields, structure(), p_);
  set_start(x_, p_.x_start_m);
  set_start(v_, p_.v_start_mps);
  set_start(i_, p_.i_start_ms);
}

void PidController::outputs(Evaluation& e) const { e.set(load_, p_.load(e.t())); }

std::unique_ptr<SimulationModel> make_pid_controller(PidForm form, PidControllerParameters p) {
  auto model = std::make_unique<PidController>(form, p);
  if (form != PidForm::kAsWritten) return model;
  return std::make_unique<IndexReducedModel>(std::move(model));
}

}  // namespace hdae::models
