// The two-stage transistor amplifier in its original form M der(U) = f(t, U) (Hairer and
// Wanner, "Solving Ordinary Differential Equations II", section VI.1; problem "transamp" of
// Mazzia and Magherini, "Test Set for IVP Solvers"): eight node voltages U1..U8, an input
// Ue(t) = 0.1 sin(200 pi t) V through R0, two transistors with the current
// g(u) = beta (exp(u / UF) - 1) of their base-emitter voltage u, and capacitors C1..C5.
// With all nine resistors R1..R9 equal to R, every row is a differential (f_d) row:
//
//   C1 (der(U2) - der(U1)) = (U1 - Ue)/R0
//   C1 (der(U1) - der(U2)) = (2 U2 - Ub)/R + (1 - alpha) g(U2 - U3)
//   -C2 der(U3)             = U3/R - g(U2 - U3)
//   C3 (der(U5) - der(U4)) = (U4 - Ub)/R + alpha g(U2 - U3)
//   C3 (der(U4) - der(U5)) = (2 U5 - Ub)/R + (1 - alpha) g(U5 - U6)
//   -C4 der(U6)             = U6/R - g(U5 - U6)
//   C5 (der(U8) - der(U7)) = (U7 - Ub)/R + alpha g(U5 - U6)
//   C5 (der(U7) - der(U8)) = U8/R
//
// The mass matrix is singular (rank 5 of 8): the rows of each pair (1, 2), (4, 5), (7, 8)
// hold the same derivatives with opposite signs, so their sum is a constraint (the current
// balance of a node without a capacitor to ground) and the system has index 1. The engine
// finds these hidden constraints itself (docs/design.md, "General rows and singular mass
// matrices"). Start values (the test set's consistent y(0)): U1 = U8 = 0, U2 = U3 = U5 =
// U6 = Ub R1/(R1 + R2) = Ub/2, U4 = U7 = Ub. The test set's reference at t = 0.2 s (PSIDE at
// tolerance 1e-14) is U8(0.2) = 1.236995868091548 V; tests/models/test_transistor_amplifier.cpp
// checks all eight values.
//
// Parameters (set_parameter): Ub, UF, alpha, beta, R0, R, C1..C5, Ue_amplitude,
// Ue_frequency (the fields of TransistorAmplifierParameters).
#pragma once

#include <array>
#include <optional>
#include <span>

#include "hdae/model_builder.hpp"

namespace hdae::models {

struct TransistorAmplifierParameters {
  double ub_v = 6.0;       ///< operating voltage Ub
  double uf_v = 0.026;     ///< transistor voltage scale UF
  double alpha = 0.99;     ///< share of the transistor current at the collector
  double beta_a = 1e-6;    ///< transistor current scale beta
  double r0_ohm = 1000.0;  ///< input resistor R0
  double r_ohm = 9000.0;   ///< R1..R9
  std::array<double, 5> c_f = {1e-6, 2e-6, 3e-6, 4e-6, 5e-6};  ///< C1..C5
  double ue_amplitude_v = 0.1;     ///< input Ue(t) = amplitude sin(2 pi frequency t)
  double ue_frequency_hz = 100.0;  ///< the test set: Ue = 0.1 sin(200 pi t)
  /// der_start of U1..U8 (e.g. the test set's published y'(0)); unset: the engine finds the
  /// consistent derivatives at t0 from der_x = 0.
  std::optional<std::array<double, 8>> der_start;
};

class TransistorAmplifier final : public Model {
 public:
  explicit TransistorAmplifier(TransistorAmplifierParameters p = {});
  void evaluate(Evaluation& e) override;
  void parameters_changed() override;
  /// The rows' exact derivatives, for the sensitivities (SimulationModel::has_exact_jacobian);
  /// provides_jacobian() stays false, so the model's own runs keep IDA's difference quotients
  /// for their Newton matrix, as the catalog's references were made.
  [[nodiscard]] bool has_exact_jacobian() const override { return true; }
  void jacobian(double t, double cj, std::span<const double> x, std::span<const double> der_x,
                JacobianEntries& entries) override;

  [[nodiscard]] const TransistorAmplifierParameters& parameters() const { return p_; }
  /// The input voltage Ue(t) in V.
  [[nodiscard]] double input_voltage(double t) const;

 private:
  void set_start_values();
  [[nodiscard]] double transistor_current(double u) const;

  TransistorAmplifierParameters p_;
  std::array<Var, 8> u_;
  std::array<Eq, 8> rows_;
  Out ue_;
};

}  // namespace hdae::models
