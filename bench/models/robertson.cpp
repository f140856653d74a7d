#include "models/robertson.hpp"

namespace hdae::bench {

Robertson::Robertson(RobertsonParameters p) : Model("robertson"), p_(p) {
  y1_ = declare_variable({.name = "y1", .start = 1.0});
  y2_ = declare_variable({.name = "y2", .start = 0.0, .nominal = 1e-4});
  y3_ = declare_variable({.name = "y3", .start = 0.0});
  reaction1_ = declare_equation("der(y1) = -k1*y1 + k3*y2*y3");
  reaction2_ = declare_equation("der(y2) = k1*y1 - k3*y2*y3 - k2*y2^2");
  balance_ = declare_equation("0 = y1 + y2 + y3 - 1", RowKind::kConstraint);
}

void Robertson::evaluate(Evaluation& e) {
  const double y1 = e.x(y1_);
  const double y2 = e.x(y2_);
  const double y3 = e.x(y3_);
  // The same expressions, in the same order, as the raw-IDA residual (raw/raw_problems.cpp).
  e.set(reaction1_, e.der(y1_) + p_.k1 * y1 - p_.k3 * y2 * y3);
  e.set(reaction2_, e.der(y2_) - p_.k1 * y1 + p_.k3 * y2 * y3 + p_.k2 * y2 * y2);
  e.set(balance_, y1 + y2 + y3 - 1.0);
}

RobertsonOde::RobertsonOde(RobertsonParameters p) : Model("robertson_ode"), p_(p) {
  y1_ = declare_variable({.name = "y1", .start = 1.0});
  y2_ = declare_variable({.name = "y2", .start = 0.0, .nominal = 1e-4});
  y3_ = declare_variable({.name = "y3", .start = 0.0});
  reaction1_ = declare_equation("der(y1) = -k1*y1 + k3*y2*y3");
  reaction2_ = declare_equation("der(y2) = k1*y1 - k3*y2*y3 - k2*y2^2");
  reaction3_ = declare_equation("der(y3) = k2*y2^2");
}

void RobertsonOde::evaluate(Evaluation& e) {
  const double y1 = e.x(y1_);
  const double y2 = e.x(y2_);
  const double y3 = e.x(y3_);
  e.set(reaction1_, e.der(y1_) + p_.k1 * y1 - p_.k3 * y2 * y3);
  e.set(reaction2_, e.der(y2_) - p_.k1 * y1 + p_.k3 * y2 * y3 + p_.k2 * y2 * y2);
  e.set(reaction3_, e.der(y3_) - p_.k2 * y2 * y2);
}

}  // namespace hdae::bench
