#include "hdae/models/bouncing_ball.hpp"

#include <array>
#include <cmath>
#include <utility>

#include "parameter_fields.hpp"

namespace hdae::models {

namespace {

using P = BouncingBallParameters;
const std::array<detail::ParameterField<P>, 4> kFields = {{
    {{.name = "h_start", .unit = "m", .min = 0.0, .description = "height at t0"},
     [](P& p) -> double& { return p.h0_m; }},
    {{.name = "e", .min = 0.0, .max = 1.0, .description = "coefficient of restitution"},
     [](P& p) -> double& { return p.restitution; }},
    {{.name = "g", .unit = "m/s2", .min = 0.0, .description = "gravitational acceleration"},
     [](P& p) -> double& { return p.gravity_mps2; }},
    {{.name = "v_rest",
      .unit = "m/s",
      .min = 0.0,
      .description = "rebound speed below which the ball stays at rest (0: never)"},
     [](P& p) -> double& { return p.rest_speed_mps; }},
}};

}  // namespace

BouncingBall::BouncingBall(BouncingBallParameters p) : Model("bouncing_ball"), p_(p) {
  detail::declare_fields<P>(kFields, p_,
                            [this](ParameterInfo i) { declare_parameter(std::move(i)); });
  h_ = declare_variable({.name = "h", .unit = "m", .start = p_.h0_m, .der_unit = "m/s"});
  v_ = declare_variable({.name = "v", .unit = "m/s", .der_unit = "m/s2"});
  kinematics_ = declare_equation("der(h) = v");
  dynamics_ = declare_equation("der(v) = -g (flying) or 0 (at rest)");
  // Only the impact (h falling through 0) matters; lift-off needs no event.
  below_ground_ = declare_crossing("h < 0", CrossingDirection::kRising);
}

void BouncingBall::parameters_changed() {
  p_ = detail::read_fields<P>(kFields, structure(), p_);
  set_start(h_, p_.h0_m);
}

void BouncingBall::evaluate(Evaluation& e) {
  e.negative(below_ground_, e.x(h_));
  e.set(kinematics_, e.der(h_) - e.x(v_));
  e.set(dynamics_, e.der(v_) + (flying_ ? p_.gravity_mps2 : 0.0));
}

void BouncingBall::on_event(EventContext& event) {
  // What the handler does follows from the crossing and the state alone, not from flying_: a
  // run with sensitivities calls it again at the same point and at nearby ones. At rest h
  // stays where it is, so the crossing does not rise again.
  if (!event.rose(below_ground_)) return;
  const double rebound = -p_.restitution * event.x(v_);
  if (std::abs(rebound) < p_.rest_speed_mps) {
    flying_ = false;
    event.set(v_, 0.0);
  } else {
    event.set(v_, rebound);
  }
}

}  // namespace hdae::models
