// Three masses with two end stops hit at the same instant (the ITI paper, section 3.2,
// example 3): masses m1, m2, m3 at positions s1 < s2 < s3 on a line; end stop 1 sits between
// masses 1 and 2 and closes when s2 - s1 falls to d, end stop 2 between masses 2 and 3 closes
// when s3 - s2 falls to d. The paper's figure with the configuration is not reproduced in
// its text, so this model chooses one in which both stops close at the same instant:
//   m = (1, 2, 3) kg, s(0) = (0, 1.5, 2.5) m, v(0) = (2, 0, -1) m/s, d = 0.5 m,
// i.e. gaps of 1 m and 0.5 m closing at 2 m/s and 1 m/s: both at t = 0.5 s. Restitution
// ci1 = ci2 = 0.6 as in the paper.
//
// Each stop force F_k = der(p_int_k) may be a Dirac impulse (docs/design.md, "The problem class"):
//   der(s_i) = v_i                                           f_d
//   m1 der(v1) = -F1,  m2 der(v2) = F1 - F2,  m3 der(v3) = F2  f_d (momentum balances)
//   stop row k                                               see below
// A stop row is F_k = 0 (f_d) while the stop is open. In the event pass in which stop k
// closes with its masses approaching it becomes the paper's impact law
//   0 = v_{k+1} - v_k + ci_k (v_{k+1}^- - v_k^-)             f_c
// so two stops closing together give one event whose single jump solve handles both impacts
// at once (the paper's point: multiple simultaneous impacts). The model then asks for one
// more event pass in which the rows return to F_k = 0 (that jump solve changes nothing).
// Restitution must be > 0: after a plastic impact the two masses would stay in contact on the
// crossing threshold, and deciding when such a stop reopens (a tensile impulse from the other
// stop) is a complementarity problem this model does not solve.
//
// Known answers for the configuration above (momentum and both impact laws, solved by hand):
// v^+ = (-22/15, -4/15, 1/3) m/s, stop impulses 52/15 and 4 N s.
//
// Parameters (set_parameter): m1, m2, m3, ci1, ci2, d, s1_start, s2_start, s3_start, v1_start,
// v2_start, v3_start (the fields of ThreeMassesParameters), with both stops open at t0.
//
// The same model as the physics reads it (ImpulseForm::kImpactSources, catalog name
// "three_masses_impact"; docs/design.md, "The jump solve", impacts): the stop forces F1, F2 are
// plain algebraic unknowns, the stop rows the constraints F_k = 0 while open, and in the impact
// pass the model marks F_k as an impact source (EventContext::impulse) instead of writing an
// integral state. The engine integrates the equations of motion over the impulses and reports
// them in the event log; the post-impact state is the same.
#pragma once

#include <array>

#include "hdae/model_builder.hpp"
#include "hdae/models/impulse_form.hpp"

namespace hdae::models {

struct ThreeMassesParameters {
  std::array<double, 3> masses_kg = {1.0, 2.0, 3.0};
  std::array<double, 2> restitution = {0.6, 0.6};  ///< ci_1, ci_2, each in (0, 1]
  double contact_distance_m = 0.5;                 ///< d, >= 0
  std::array<double, 3> s_start_m = {0.0, 1.5, 2.5};
  std::array<double, 3> v_start_mps = {2.0, 0.0, -1.0};
};

class ThreeMasses final : public Model {
 public:
  explicit ThreeMasses(ThreeMassesParameters p = {},
                       ImpulseForm form = ImpulseForm::kIntegralStates);
  void evaluate(Evaluation& e) override;
  void on_event(EventContext& event) override;
  void reset() override;
  void parameters_changed() override;

  [[nodiscard]] const ThreeMassesParameters& parameters() const { return p_; }
  /// Impacts per end stop in the last run.
  [[nodiscard]] const std::array<int, 2>& impacts() const { return impacts_; }

 private:
  /// Typical gap magnitude (m): the contact distance, or 1 m for point masses.
  [[nodiscard]] double gap_nominal() const {
    return p_.contact_distance_m > 0.0 ? p_.contact_distance_m : 1.0;
  }

  ThreeMassesParameters p_;
  ImpulseForm form_;
  std::array<bool, 2> impact_pass_ = {false, false};  ///< stop row k is the impact law
  std::array<int, 2> impacts_ = {0, 0};
  std::array<Var, 3> s_, v_;
  std::array<Var, 2> force_;  ///< p_int_k (integral states) or F_k (impact sources)
  std::array<Eq, 3> kinematics_, momentum_;
  std::array<Eq, 2> stop_;
  std::array<Crossing, 2> stop_closed_;
  std::array<Out, 2> gap_;
  Out total_momentum_, kinetic_energy_;
};

}  // namespace hdae::models
