// A mass positioned by a PID controller, the chi language's example of substitute equations
// (van Beek, Rooda et al.), in four forms that must give the same motion. The physics:
//   (5a) der(x) = v                    (5d) e = x - x_set
//   (5b) m der(v) = F(t) - u           (5e) u = kP e + kD der(e) + kI i
//   (5c) der(i) = e
// with the load F(t) = F0 + F1 sin(w t). As written the system has index 2: der(e) in (5e)
// asks for (5d) to be differentiated. The forms:
//   kAsWritten              (5a-e) as above; make_pid_controller wraps it in the index
//                           reduction (hdae/index_reduction.hpp), which differentiates (5d)
//   kDerivativeSubstituted  (5a-e) plus the substitute equation der(e) <- der(x): (5e) then
//                           reads der(x), der(e) appears nowhere, and the index is 1
//   kSubstituted            e <- x - x_set and der(e) <- der(x): e leaves the unknowns, the
//                           rows are (5a-c) and (5e) (4 equations), e stays a result column
//   kHandReduced            the index-1 form reduced by hand, x' = v, m v' = F - u,
//                           e = x - x_set, i' = e, u = kP e + kD x' + kI i
// Only x, v and i are freely initialisable; e's start value is ignored: the index reduction
// holds x (fixed) and moves e to x_start - x_set, saying so in describe(), and the index-1
// forms solve e from its constraint at t0.
// Defaults: m = 1, kP = 11, kD = 6, kI = 6, so that the closed loop's characteristic polynomial
// m s^3 + kD s^2 + kP s + kI = (s + 1)(s + 2)(s + 3); x_set = 1, F0 = 2, F1 = 0.5, w = 2.
// Parameters (set_parameter): m, kP, kD, kI, x_set, F0, F1, w, x_start, v_start, i_start.
#pragma once

#include <cmath>
#include <memory>

#include "hdae/physics_model.hpp"

namespace hdae::models {

enum class PidForm { kAsWritten, kDerivativeSubstituted, kSubstituted, kHandReduced };

struct PidControllerParameters {
  double mass_kg = 1.0;
  double kP_npm = 11.0;
  double kD_nspm = 6.0;
  double kI_npms = 6.0;
  double x_set_m = 1.0;
  double load_n = 2.0;            ///< F0
  double load_amplitude_n = 0.5;  ///< F1
  double load_frequency_radps = 2.0;
  double x_start_m = 0.0;
  double v_start_mps = 0.0;
  double i_start_ms = 0.0;

  /// F(t) = F0 + F1 sin(w t).
  template <class S>
  [[nodiscard]] S load(const S& t) const {
    using std::sin;
    return load_n + load_amplitude_n * sin(load_frequency_radps * t);
  }
};

class PidController final : public PhysicsModelOf<PidController> {
 public:
  explicit PidController(PidForm form, PidControllerParameters p = {});
  void parameters_changed() override;
  void outputs(Evaluation& e) const override;

  template <class S>
  void residuals(Equations<S>& e) const {
    switch (form_) {
      case PidForm::kAsWritten:
        return as_written(e);
      case PidForm::kDerivativeSubstituted:
        e.substitute_der(e_, e.der(x_));  // der(e) <- der(x)
        return as_written(e);
      case PidForm::kSubstituted:
        e.substitute(error_, e.x(x_) - p_.x_set_m);  // e <- x - x_set
        e.substitute_der(error_, e.der(x_));         // der(e) <- der(x)
        return loop(e, error_);
      case PidForm::kHandReduced:
        return hand_reduced(e);
    }
  }

  [[nodiscard]] PidForm form() const { return form_; }
  [[nodiscard]] const PidControllerParameters& parameters() const { return p_; }

 private:
  /// (5a-c) and (5e), with the control error E either a variable or a substitution.
  template <class S, class E>
  void loop(Equations<S>& e, E error) const {
    e.set(kinematics_, e.der(x_) - e.x(v_));
    e.set(momentum_, p_.mass_kg * e.der(v_) - (p_.load(e.t()) - e.x(u_)));
    e.set(integral_, e.der(i_) - e.x(error));
    e.set(control_,
          e.x(u_) - (p_.kP_npm * e.x(error) + p_.kD_nspm * e.der(error) + p_.kI_npms * e.x(i_)));
  }
  template <class S>
  void as_written(Equations<S>& e) const {
    loop(e, e_);
    e.set(error_row_, e.x(e_) - (e.x(x_) - p_.x_set_m));
  }
  template <class S>
  void hand_reduced(Equations<S>& e) const {
    e.set(kinematics_, e.der(x_) - e.x(v_));
    e.set(momentum_, p_.mass_kg * e.der(v_) - (p_.load(e.t()) - e.x(u_)));
    e.set(error_row_, e.x(e_) - (e.x(x_) - p_.x_set_m));
    e.set(integral_, e.der(i_) - e.x(e_));
    e.set(control_,
          e.x(u_) - (p_.kP_npm * e.x(e_) + p_.kD_nspm * e.der(x_) + p_.kI_npms * e.x(i_)));
  }

  PidForm form_;
  PidControllerParameters p_;
  Var x_, v_, i_, e_, u_;  ///< e_ unused in the kSubstituted form
  Subst error_;            ///< e in the kSubstituted form
  Eq kinematics_, momentum_, integral_, error_row_, control_;
  Out load_;
};

/// The catalog's name of each form: pid_controller, pid_controller_der_substituted,
/// pid_controller_substituted, pid_controller_reduced.
[[nodiscard]] const char* pid_model_name(PidForm form);

/// The model of a form, ready to simulate: kAsWritten reduced to index 1, the others as
/// they are (their index is 1).
[[nodiscard]] std::unique_ptr<SimulationModel> make_pid_controller(PidForm form,
                                                                   PidControllerParameters p = {});

}  // namespace hdae::models
