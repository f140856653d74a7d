#include "hdae/models/hydraulic_actuator.hpp"

namespace hdae::models {

HydraulicActuator::HydraulicActuator(HydraulicActuatorParameters p)
    : Model("hydraulic_actuator"), p_(p) {
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

void HydraulicActuator::evaluate(Evaluation& e) {
  for (std::size_t i = 0; i < 4; ++i) {
    double r = 0.0;
    for (std::size_t j = 0; j < 4; ++j) r += kE[i][j] * e.der(x_[j]) + kA[i][j] * e.x(x_[j]);
    e.set(rows_[i], r);
  }
}

}  // namespace hdae::models
