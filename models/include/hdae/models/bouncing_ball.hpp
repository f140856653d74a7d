// A ball dropped from h0 onto the ground (ModiaMath's bouncing ball):
//   der(h) = v,  der(v) = -g while flying, 0 at rest
// At each impact (h falls through 0) the velocity is re-initialized explicitly, v := -e v;
// when the rebound speed e |v| is below rest_speed the ball comes to rest (v := 0). Without
// the rest rule (rest_speed = 0) the impacts accumulate at t1 (1 + e)/(1 - e) (Zeno).
//
// Parameters (set_parameter): h_start, e, g, v_rest (the fields of BouncingBallParameters).
#pragma once

#include "hdae/model_builder.hpp"

namespace hdae::models {

struct BouncingBallParameters {
  double h0_m = 1.0;
  double restitution = 0.7;
  double gravity_mps2 = 9.81;
  double rest_speed_mps = 0.01;  ///< 0 disables the rest rule
};

class BouncingBall final : public Model {
 public:
  explicit BouncingBall(BouncingBallParameters p = {});
  void evaluate(Evaluation& e) override;
  void on_event(EventContext& event) override;
  void reset() override { flying_ = true; }
  void parameters_changed() override;

  [[nodiscard]] bool flying() const { return flying_; }

 private:
  BouncingBallParameters p_;
  bool flying_ = true;
  Var h_, v_;
  Eq kinematics_, dynamics_;
  Crossing below_ground_;
};

}  // namespace hdae::models
