// The ideal clutch of Benveniste et al. (2019), as bundled with ModiaMath (the ModiaMath
// overview, paper 004): a DC source V0 drives, through a resistor R, a capacitor C in parallel
// with an electric motor (emf constant k) on shaft 1 (inertia J1); an ideal clutch couples
// shaft 1 to shaft 2 (inertia J2). Engaged for t < release_s and t >= engage_s (two time
// events), released in between.
//
// Unknowns x = [w1, w2, tau_int]; the clutch torque tau = der(tau_int) may be a Dirac impulse
// (docs/design.md, "The problem class"), its angular impulse is the jump of tau_int. Sign
// convention: tau is the torque shaft 1 exerts on shaft 2.
//   u_C = k w1,  i_C = C der(u_C) = C k der(w1),  i_R = (V0 - u_C)/R,  tau_emf = k (i_R - i_C)
//   J1 der(w1) = tau_emf - tau                     f_d
//   J2 der(w2) = tau                               f_d
//   engaged:  0 = w2 - w1                          f_c
//   released: 0 = tau  (= der(tau_int))            f_d
// Because i_C contains der(w1), the capacitor acts as an extra inertia k^2 C on shaft 1: at
// engagement (J1 + k^2 C) w1 + J2 w2 is conserved, which gives 6.4 rad/s right after t = 0
// for the published case (docs/design.md, "The jump solve").
//
// Parameters (set_parameter): V0, J1, J2, R, C, k, w1_start, w2_start, release, engage (the
// fields of IdealClutchParameters, in this order), with engage > release.
#pragma once

#include "hdae/model_builder.hpp"

namespace hdae::models {

struct IdealClutchParameters {
  double source_voltage_v = 10.0;   ///< V0
  double inertia1_kgm2 = 0.1;       ///< J1
  double inertia2_kgm2 = 0.4;       ///< J2
  double resistance_ohm = 10.0;     ///< R
  double capacitance_f = 2.0;       ///< C
  double emf_constant_nmpa = 0.25;  ///< k, N m / A (= V s / rad)
  double w1_start_radps = 0.0;      ///< w1(t0^-)
  double w2_start_radps = 10.0;     ///< w2(t0^-)
  double release_s = 100.0;         ///< the clutch opens at this time
  double engage_s = 300.0;          ///< and closes again at this time (> release_s)
};

class IdealClutch final : public Model {
 public:
  explicit IdealClutch(IdealClutchParameters p = {});
  void evaluate(Evaluation& e) override;
  void on_event(EventContext& event) override;
  void reset() override { engaged_ = true; }
  void parameters_changed() override;

  [[nodiscard]] const IdealClutchParameters& parameters() const { return p_; }
  [[nodiscard]] bool engaged() const { return engaged_; }
  /// Effective inertia of shaft 1 including the capacitor, J1 + k^2 C (kg m^2).
  [[nodiscard]] double effective_inertia1_kgm2() const;

 private:
  IdealClutchParameters p_;
  bool engaged_ = true;
  Var w1_, w2_, tau_int_;
  Eq shaft1_, shaft2_, clutch_;
  Out capacitor_voltage_, capacitor_current_, resistor_current_, engaged_out_;
  TimeEvent release_, engage_;
};

}  // namespace hdae::models
