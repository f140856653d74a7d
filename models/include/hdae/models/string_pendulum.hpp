// A bob on a string, in Cartesian coordinates, written as the physics reads: the string holds
// the bob on its circle while it pulls (tension T >= 0, index 3, as the Cartesian pendulum's
// rod) and lets it fly when the tension would push (index 1, T = 0):
//   der(x) = vx,  der(y) = vy
//   m der(vx) = -T x/L
//   m der(vy) = -T y/L - m g
//   taut:  0 = x^2 + y^2 - L^2        slack: 0 = T
// The string goes slack where T reaches 0 and jerks taut where the flying bob reaches the
// string's length again: an impact along the string with restitution 0, written as one event
// pass with T as impact source and the law 0 = x vx + y vy (no velocity along the string
// after it), after which the string is taut. Each change of mode changes the equations' offsets:
// the engine lays the reduced system out afresh for the mode (docs/design.md, "Changes of
// structure").
//
// Known answers (theta from the downward vertical): started at the bottom with speed v0, the
// bob goes slack where T = m v^2/L + m g cos(theta) = 0 with v^2 = v0^2 - 2 g L (1 - cos(theta)),
// i.e. cos(theta_s) = (2 g L - v0^2) / (3 g L) (between 90 and 180 degrees for
// 2 g L < v0^2 < 5 g L), at the speed v_s^2 = -g L cos(theta_s); it then flies the parabola
// from there, and at the jerk keeps only the velocity across the string.
// Parameters (set_parameter): L, m, g, v0.
#pragma once

#include <memory>

#include "hdae/index_reduction.hpp"
#include "hdae/physics_model.hpp"

namespace hdae::models {

struct StringPendulumParameters {
  double length_m = 1.0;
  double mass_kg = 1.0;
  double gravity_mps2 = 9.81;
  /// Speed at the bottom at t0 (along +x). The default, sqrt(3.5 g L), goes slack at 120 degrees.
  double v0_mps = 5.859607495387;
};

class StringPendulum final : public PhysicsModelOf<StringPendulum> {
 public:
  enum class Mode { kTaut, kSlack, kJerk };

  explicit StringPendulum(StringPendulumParameters p = {});
  void parameters_changed() override;
  void outputs(Evaluation& e) const override;
  void on_event(EventContext& event) override;
  void reset() override {
    mode_ = Mode::kTaut;
    slack_offset_ = 0.0;
  }

  template <class S>
  void residuals(Equations<S>& e) const {
    const double L = p_.length_m;
    const double m = p_.mass_kg;
    const S& x = e.x(x_);
    const S& y = e.x(y_);
    const S& vx = e.x(vx_);
    const S& vy = e.x(vy_);
    const S& T = e.x(T_);
    // Each crossing watches its own mode; in the other it holds a constant away from zero. The
    // stretch is measured from where the string went slack, so that it starts at exactly 0
    // (false) instead of the rod's round-off, which could read as stretched at once.
    e.negative(slackens_, mode_ == Mode::kTaut ? T : S(1.0));
    e.positive(stretches_,
               mode_ == Mode::kSlack ? (x * x + y * y - L * L) / L - slack_offset_ : S(-L));
    e.set(kinematics_x_, e.der(x_) - vx);
    e.set(kinematics_y_, e.der(y_) - vy);
    e.set(momentum_x_, m * e.der(vx_) + T * x / L);
    e.set(momentum_y_, m * e.der(vy_) + T * y / L + m * p_.gravity_mps2);
    switch (mode_) {
      case Mode::kTaut:
        e.set(string_, x * x + y * y - L * L);
        break;
      case Mode::kSlack:
        e.set(string_, T);
        break;
      case Mode::kJerk:
        e.set(string_, x * vx + y * vy);
        break;
    }
  }

  [[nodiscard]] Mode mode() const { return mode_; }
  [[nodiscard]] const StringPendulumParameters& parameters() const { return p_; }

 private:
  StringPendulumParameters p_;
  Mode mode_ = Mode::kTaut;
  double slack_offset_ = 0.0;  ///< (x^2 + y^2 - L^2) / L where the string went slack
  Var x_, y_, vx_, vy_, T_;
  Eq kinematics_x_, kinematics_y_, momentum_x_, momentum_y_, string_;
  Crossing slackens_, stretches_;
  Out phi_, energy_, r_;
};

/// The bob on a string, reduced (and laid out afresh at each change of mode), ready to run.
[[nodiscard]] std::unique_ptr<IndexReducedModel> make_string_pendulum(
    StringPendulumParameters p = {});

}  // namespace hdae::models
