// Example 2 of the ITI paper on initial values of DAEs of higher index: one equation whose
// index changes at a time event,
//   1 = if t < t_s then x else der(x)
// Before t_s the row holds no derivative: x = 1 is a constraint (index 1), and the engine
// differentiates it (a hidden constraint) to find der(x) = 0. From t_s on it is the ODE
// der(x) = 1 (index 0), so x(t) = 1 + (t - t_s) whatever x's start value was: the start value
// is a guess the constraint overrides.
// The row stays kDifferential in both modes; at t_s the model says that der(x) entered it
// (EventContext::rows_changed), and x turns from algebraic into a state.
// Parameters (set_parameter): t_s, x_start.
#pragma once

#include "hdae/physics_model.hpp"

namespace hdae::models {

struct ItiExample2Parameters {
  double switch_s = 0.5;
  double x_start = 3.0;  ///< a guess, ignored by the consistent start (x = 1 before t_s)
};

class ItiExample2 final : public PhysicsModelOf<ItiExample2> {
 public:
  explicit ItiExample2(ItiExample2Parameters p = {});
  void parameters_changed() override;
  void on_event(EventContext& event) override;
  void reset() override { differential_ = false; }

  template <class S>
  void residuals(Equations<S>& e) const {
    e.set(row_, differential_ ? S(1.0 - e.der(x_)) : S(1.0 - e.x(x_)));
  }

  [[nodiscard]] Var x() const { return x_; }
  /// True from t_s on (the row is der(x) = 1).
  [[nodiscard]] bool differential() const { return differential_; }

 private:
  ItiExample2Parameters p_;
  Var x_;
  Eq row_;
  TimeEvent switch_;
  bool differential_ = false;
};

}  // namespace hdae::models
