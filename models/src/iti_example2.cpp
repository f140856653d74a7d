#include "hdae/models/iti_example2.hpp"

#include <array>
#include <utility>

#include "parameter_fields.hpp"

namespace hdae::models {

namespace {

using P = ItiExample2Parameters;
const std::array<detail::ParameterField<P>, 2> kFields = {{
    {{.name = "t_s", .unit = "s", .description = "time at which the row becomes der(x) = 1"},
     [](P& p) -> double& { return p.switch_s; }},
    {{.name = "x_start", .description = "start value of x (a guess: x = 1 before t_s)"},
     [](P& p) -> double& { return p.x_start; }},
}};

}  // namespace

ItiExample2::ItiExample2(ItiExample2Parameters p) : PhysicsModelOf("iti_example2"), p_(p) {
  detail::declare_fields<P>(kFields, p_,
                            [this](ParameterInfo i) { declare_parameter(std::move(i)); });
  x_ = declare_variable({.name = "x", .start = p_.x_start});
  row_ = declare_equation("1 = if t < t_s then x else der(x)");
  switch_ = declare_time_event("t = t_s");
}

void ItiExample2::parameters_changed() {
  p_ = detail::read_fields<P>(kFields, structure(), p_);
  set_start(x_, p_.x_start);
}

void ItiExample2::on_event(EventContext& event) {
  if (event.is_initial()) {
    differential_ = event.t() >= p_.switch_s;
    if (!differential_) event.schedule(switch_, p_.switch_s);
  }
  if (event.fired(switch_)) {
    differential_ = true;
    // Same row kind, but der(x) now appears in it: x becomes a state.
    event.rows_changed();
  }
}

}  // namespace hdae::models
