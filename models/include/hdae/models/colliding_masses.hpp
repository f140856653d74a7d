// Two point masses on a line that collide (the ITI paper, section 3.1;
// docs/design.md, "The jump solve"): mass 1 at s1 behind mass 2 at s2, in free flight until the
// gap s2 - s1 - d closes (d is the contact distance, e.g. the sum of the half widths). The impact
// is not a hand-written re-initialization formula: the contact force F = der(p_int) is a Dirac
// impulse whose weight is the jump of p_int, and the jump solve finds it from
//   der(s1) = v1,  der(s2) = v2                        f_d
//   m1 der(v1) = -F,  m2 der(v2) = F                   f_d (momentum balances)
//   contact row                                        see below
// The contact row is F = 0 (f_d: der(p_int) = 0) in free flight. In the event pass in which
// the gap closes with the masses approaching, it becomes Newton's restitution law
//   0 = v2 - v1 + e (v2^- - v1^-)                      f_c
// with the pre-impact velocities v^- the jump's left limits (Evaluation::left_limit); for e > 0 the
// model then asks for one more event pass, in which the row returns to F = 0 (that pass's jump
// solve changes nothing) and the masses fly apart. For e = 0 (plastic impact) the masses stick: the
// row stays the constraint 0 = v2 - v1 and the gap crossing is held closed, since no force in this
// model can separate them. (Returning to F = 0 instead would leave the gap sitting on the crossing
// threshold, where integration noise of s2 - s1, about abs_tol, makes spurious crossings.)
//
// Known answers: momentum m1 v1 + m2 v2 is conserved, v2^+ - v1^+ = -e (v2^- - v1^-), and the
// kinetic energy drops by m1 m2 / (2 (m1 + m2)) (1 - e^2) (v1^- - v2^-)^2.
//
// Parameters (set_parameter): m1, m2, e, d, s1_start, s2_start, v1_start, v2_start (the fields
// of CollidingMassesParameters), with s2_start - s1_start > d.
//
// The ITI paper's own form (section 3.1; ImpulseForm::kImpactSources, catalog name
// "colliding_masses_impact"): the contact force F is a plain algebraic unknown, the contact row
// the constraint F = 0 in free flight, and in the impact pass the model marks F as an impact
// source (EventContext::impulse) instead of writing p_int; the engine integrates
// m1 (v1^+ - v1^-) = -F_hat and m2 (v2^+ - v2^-) = F_hat and reports F_hat. Restitution must be
// > 0 in this form: masses that stick would need a persistent contact constraint with an
// algebraic force, an index-2 mode. With M = m1 + m2 and u = v1^- - v2^- the textbook answer
// is v1^+ = v1^- - m2 (1 + e) u / M, v2^+ = v2^- + m1 (1 + e) u / M, F_hat = m1 m2 (1 + e) u / M.
#pragma once

#include "hdae/model_builder.hpp"
#include "hdae/models/impulse_form.hpp"

namespace hdae::models {

struct CollidingMassesParameters {
  double mass1_kg = 1.0;
  double mass2_kg = 1.0;
  /// e in [0, 1]; 0 = plastic impact, the known answer in docs/design.md, "The jump solve"
  double restitution = 0.0;
  double contact_distance_m = 0.5;  ///< d: contact when s2 - s1 <= d; >= 0
  double s1_start_m = 0.0;
  double s2_start_m = 1.0;  ///< s2 - s1 > d at the start
  double v1_start_mps = 1.0;
  double v2_start_mps = 0.0;
};

class CollidingMasses final : public Model {
 public:
  explicit CollidingMasses(CollidingMassesParameters p = {},
                           ImpulseForm form = ImpulseForm::kIntegralStates);
  void evaluate(Evaluation& e) override;
  void on_event(EventContext& event) override;
  void reset() override;
  void parameters_changed() override;

  [[nodiscard]] const CollidingMassesParameters& parameters() const { return p_; }
  /// Number of impacts in the last run.
  [[nodiscard]] int impacts() const { return impacts_; }

 private:
  /// Typical gap magnitude (m): the contact distance, or 1 m for point masses.
  [[nodiscard]] double gap_nominal() const {
    return p_.contact_distance_m > 0.0 ? p_.contact_distance_m : 1.0;
  }

  CollidingMassesParameters p_;
  ImpulseForm form_;
  enum class Contact { kOpen, kImpact, kStuck };
  Contact contact_state_ = Contact::kOpen;  ///< what the contact row says (see above)
  int impacts_ = 0;
  Var s1_, s2_, v1_, v2_, force_;  ///< force_: p_int or F (see ImpulseForm)
  Eq kinematics1_, kinematics2_, momentum1_, momentum2_, contact_;
  Crossing gap_closed_;
  Out gap_, momentum_, kinetic_energy_;
};

}  // namespace hdae::models
