#include "hdae/models/hydraulic_actuator.hpp"

#include <array>
#include <utility>

#include "parameter_fields.hpp"

namespace hdae::models {

namespace {

using P = HydraulicActuatorParameters;
// The paper gives no units for its section 5 numbers.
const std::array<detail::ParameterField<P>, 4> kFields = {{
    {{.name = "f_p_start", .description = "piston flow before the switch (eq. 43: 3)"},
     [](P& p) -> double& { return p.x_start[0]; }},
    {{.name = "f_rel_start", .description = "relief flow before the switch"},
     [](P& p) -> double& { return p.x_start[1]; }},
    {{.name = "p_Rrel_start", .description = "pressure drop across R_rel before the switch"},
     [](P& p) -> double& { return p.x_start[2]; }},
    {{.name = "p_Rin_start", .description = "pressure drop across R_in before the switch"},
     [](P& p) -> double& { return p.x_start[3]; }},
}};

}  // namespace

HydraulicActuator::HydraulicActuator(HydraulicActuatorParameters p)
    : Model("hydraulic_actuator"), p_(p) {
  detail::declare_fields<P>(kFields, p_,
                            [this](ParameterInfo i) { declare_parameter(std::move(i)); });
  // The paper gives no units for its section 5 numbers; the names follow its eq. 43.
  x_[0] = declare_variable({.name = "f_p", .start = p_.x_start[0]});
  x_[1] = declare_variable({.name = "f_rel", .start = p_.x_start[1]});
  x_[2] = declare_variable({.name = "p_Rrel", .start = p_.x_start[2], .nominal = 5.0});
  x_[3] = declare_variable({.name = "p_Rin", .start = p_.x_start[3]});
  rows_[0] = declare_equation("0 = -5*f_p - 0.999911*p_Rrel", RowKind::kConstraint);
  rows_[1] = declare_equation("0 = -der(f_p) + 2*der(f_rel) + 0.2*p_Rrel");
  rows_[2] = declare_equation("0 = -f_p - f_rel", RowKind::kConstraint);
  rows_[3] = declare_equation("0 = -p_Rin", RowKind::kConstraint);
}

void HydraulicActuator::parameters_changed() {
  p_ = detail::read_fields<P>(kFields, structure(), p_);
  for (std::size_t i = 0; i < 4; ++i) set_start(x_[i], p_.x_start[i]);
}

void HydraulicActuator::evaluate(Evaluation& e) {
  for (std::size_t i = 0; i < 4; ++i) {
    double r = 0.0;
    for (std::size_t j = 0; j < 4; ++j) r += kE[i][j] * e.der(x_[j]) + kA[i][j] * e.x(x_[j]);
    e.set(rows_[i], r);
  }
}

}  // namespace hdae::models
