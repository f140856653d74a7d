#include "hdae/models/tank_overflow.hpp"

#include <array>
#include <utility>

#include "parameter_fields.hpp"

namespace hdae::models {

namespace {

using P = TankOverflowParameters;
const std::array<detail::ParameterField<P>, 7> kFields = {{
    {{.name = "A", .unit = "m2", .min = detail::kPositive, .description = "cross-section"},
     [](P& p) -> double& { return p.area_m2; }},
    {{.name = "h_max", .unit = "m", .description = "level of the overflow"},
     [](P& p) -> double& { return p.h_max_m; }},
    {{.name = "Q_in", .unit = "m3/s", .description = "inflow before t_drop"},
     [](P& p) -> double& { return p.inflow_m3ps; }},
    {{.name = "Q_in_after", .unit = "m3/s", .description = "inflow from t_drop on"},
     [](P& p) -> double& { return p.inflow_after_m3ps; }},
    {{.name = "t_drop", .unit = "s", .description = "time at which the inflow changes"},
     [](P& p) -> double& { return p.drop_s; }},
    {{.name = "Q_o", .unit = "m3/s", .description = "outflow"},
     [](P& p) -> double& { return p.outflow_m3ps; }},
    {{.name = "h_start", .unit = "m", .description = "level at t0"},
     [](P& p) -> double& { return p.h_start_m; }},
}};

}  // namespace

TankOverflow::TankOverflow(TankOverflowParameters p) : PhysicsModelOf("tank_overflow"), p_(p) {
  detail::declare_fields<P>(kFields, p_,
                            [this](ParameterInfo i) { declare_parameter(std::move(i)); });
  h_ = declare_variable({.name = "h", .unit = "m", .start = p_.h_start_m, .der_unit = "m/s"});
  overflow_ = declare_substitution({.name = "Q_x", .unit = "m3/s"});
  balance_ = declare_equation("A*der(h) = Q_i - Q_o - Q_x");
  // Only reaching h_max ends a step. Leaving it needs Q_i < Q_o first (at h_max with Q_i >= Q_o
  // the level stands still), and while Q_i < Q_o the overflow is 0 whatever this Boolean says;
  // Q_i >= Q_o again is an event, where every Boolean follows its value anew. So the level
  // falling through h_max needs no event of its own, and none hangs on the sign of the
  // round-off the plateau leaves in h - h_max when the inflow drops.
  full_ = declare_crossing("h >= h_max", CrossingDirection::kRising);
  filling_ = declare_crossing("Q_i >= Q_o");
  drop_ = declare_time_event("inflow changes");
  inflow_out_ = declare_output("Q_i", "m3/s");
}

void TankOverflow::parameters_changed() {
  p_ = detail::read_fields<P>(kFields, structure(), p_);
  set_start(h_, p_.h_start_m);
}

void TankOverflow::on_event(EventContext& event) {
  if (event.is_initial()) {
    dropped_ = event.t() >= p_.drop_s;
    if (!dropped_) event.schedule(drop_, p_.drop_s);
  }
  if (event.fired(drop_)) dropped_ = true;
  overflow_at_event_ = value(event, overflow_);
}

}  // namespace hdae::models
