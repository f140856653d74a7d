// A mass on a spring pushed by a force that switches on whenever the mass is at or left of
// the origin (ModiaMath's "simple state events" example):
//   der(s) = v
//   m der(v) = f - d v - k s,   f = 0 if s > 0 else f_max
// m = 1, k = 1, d = 0.1, f_max = 1.5, s(0) = 2, v(0) = 0, stop 10: four state events.
// Parameters (set_parameter): m, k, d, f_max, s_start, v_start (the fields of
// SimpleStateEventsParameters).
#pragma once

#include "hdae/model_builder.hpp"

namespace hdae::models {

struct SimpleStateEventsParameters {
  double mass_kg = 1.0;
  double stiffness_npm = 1.0;
  double damping_nspm = 0.1;
  double force_max_n = 1.5;
  double s0_m = 2.0;
  double v0_mps = 0.0;
};

class SimpleStateEvents final : public Model {
 public:
  explicit SimpleStateEvents(SimpleStateEventsParameters p = {});
  void evaluate(Evaluation& e) override;
  void parameters_changed() override;

 private:
  SimpleStateEventsParameters p_;
  Var s_, v_;
  Eq kinematics_, dynamics_;
  Crossing s_positive_;
  Out force_;
};

}  // namespace hdae::models
