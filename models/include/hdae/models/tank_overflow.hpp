// A tank with an overflow, the chi language's example of a guarded substitute equation:
//   A der(h) = Q_i - Q_o - Q_x
//   Q_x <- [h < h_max or Q_i < Q_o -> 0 || h >= h_max and Q_i >= Q_o -> Q_i - Q_o]
// The overflow Q_x is not an unknown: it is substituted, and recorded as a result column.
// The guards are crossings (h - h_max and Q_i - Q_o), so the overflow switches at events.
// The inflow Q_i steps from Q_in to Q_in_after at t_drop (a time event); the outflow Q_o is
// constant. Closed form with the defaults (A = 1 m2, h(0) = 0, h_max = 1 m, Q_in = 1 m3/s,
// Q_o = 0.5 m3/s, Q_in_after = 0.2 m3/s, t_drop = 3 s): h rises at (Q_in - Q_o)/A = 0.5 m/s to
// h_max at t = 2 s, stays there (the overflow takes Q_in - Q_o) until t_drop, then falls at
// (Q_in_after - Q_o)/A = -0.3 m/s.
// Parameters (set_parameter): A, h_max, Q_in, Q_in_after, t_drop, Q_o, h_start.
#pragma once

#include "hdae/physics_model.hpp"

namespace hdae::models {

struct TankOverflowParameters {
  double area_m2 = 1.0;
  double h_max_m = 1.0;
  double inflow_m3ps = 1.0;
  double inflow_after_m3ps = 0.2;
  double drop_s = 3.0;
  double outflow_m3ps = 0.5;
  double h_start_m = 0.0;
};

class TankOverflow final : public PhysicsModelOf<TankOverflow> {
 public:
  explicit TankOverflow(TankOverflowParameters p = {});
  void parameters_changed() override;
  void on_event(EventContext& event) override;
  void reset() override { dropped_ = false; }
  void outputs(Evaluation& e) const override { e.set(inflow_out_, inflow()); }

  template <class S>
  void residuals(Equations<S>& e) const {
    const S& h = e.x(h_);
    const double Qi = inflow();
    const double Qo = p_.outflow_m3ps;
    const bool full = e.positive(full_, h - p_.h_max_m);    // h >= h_max
    const bool filling = e.positive(filling_, S(Qi - Qo));  // Q_i >= Q_o
    e.substitute(overflow_, {{!full || !filling, 0.0}, {full && filling, Qi - Qo}});
    e.set(balance_, p_.area_m2 * e.der(h_) - (Qi - Qo - e.x(overflow_)));
  }

  [[nodiscard]] const TankOverflowParameters& parameters() const { return p_; }
  [[nodiscard]] Subst overflow() const { return overflow_; }
  /// Q_x at the last event the model saw (PhysicsModel::value in on_event).
  [[nodiscard]] double overflow_at_last_event() const { return overflow_at_event_; }

 private:
  [[nodiscard]] double inflow() const { return dropped_ ? p_.inflow_after_m3ps : p_.inflow_m3ps; }

  TankOverflowParameters p_;
  Var h_;
  Subst overflow_;
  Eq balance_;
  Crossing full_, filling_;
  TimeEvent drop_;
  Out inflow_out_;
  bool dropped_ = false;
  double overflow_at_event_ = 0.0;
};

}  // namespace hdae::models
