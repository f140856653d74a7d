// Andrews' squeezing mechanism: seven rigid bodies in the plane, joined without friction and
// driven by a constant torque on the crank against a spring (E. Hairer and G. Wanner, "Solving
// Ordinary Differential Equations II", section VII.7; problem "andrews" of F. Mazzia and
// C. Magherini, "Test Set for IVP Solvers"). The unknowns are the seven angles
//   q = (beta, Theta, gamma, Phi, delta, Omega, epsilon)
// (crank, rod relative to the crank, body 3 about B, body 4 relative to body 5, body 5 about
// A, body 6 relative to body 7, body 7 about A), their angular velocities w, and the six
// joint forces lambda1..lambda6 that close the three loops. Written as published, index 3:
//   der(q) = w                                  (7 rows)
//   M(q) der(w) = f(q, w) - G(q)^T lambda       (7 rows)
//   0 = g(q)                                    (6 rows, G = dg/dq)
// The rod's end F = rr (cos beta, sin beta) - d (cos(beta + Theta), sin(beta + Theta)) is the
// joint of bodies 3, 4 and 6; each loop runs from F through its bodies to a point fixed in the
// frame, and g(q) is F minus F as reached from that point through the loop, in x and y:
//   B through body 3 (g1, g2), A through bodies 5 and 4 (g3, g4), A through 7 and 6 (g5, g6).
// M(q) holds the inertia of the bodies about their joints, f(q, w) the driving torque mom on
// the crank, the spring between point D of body 3 and the fixed point C (stiffness c0,
// unstretched length l0) and the velocity terms of the bodies whose mass matrix depends on a
// relative angle (Theta, Phi, Omega). There is no gravity. The mechanism has one degree of
// freedom: make_andrews_squeezer hands the model to the index reduction
// (hdae/index_reduction.hpp), which finds index 3 and two states.
//
// Start: the test set's consistent start, angles q0 with the crank beta held (fixed) and the
// other angles plain start values, at rest (w = 0); the joint forces' start values are the
// test set's consistent ones, here only guesses of algebraic unknowns. The parameter
// Theta_offset moves Theta's start value off the constraints, for the consistent start to
// bring it back. The test set's reference solution at t = 0.03 s (PSIDE at tolerance 1e-14)
// has beta = 15.81077119629904 rad (two and a half turns of the crank);
// tests/reduction/test_andrews_squeezer.cpp checks all seven angles.
//
// AndrewsSqueezerIndex1 is the same mechanism reduced to index 1 by hand, as benchmarks run it:
// the angular accelerations a are unknowns, and the constraints are differentiated twice,
//   der(q) = w,  der(w) = a,  M(q) a = f(q, w) - G(q)^T lambda,  0 = G(q) a + g''(q, w)
// where g''(q, w) = sum_jk d2g/(dq_j dq_k) w_j w_k. It holds the loops only through their
// accelerations, so its start must already lie on g = 0 and G w = 0 (the published one does),
// and its positions drift off the loops at the integrator's tolerance.
//
// Parameters (set_parameter): mom, c0, l0, and Theta_offset (index-3 form only); the masses,
// inertias and lengths are the fields of AndrewsSqueezerParameters.
#pragma once

#include <array>
#include <cstddef>
#include <memory>

#include "hdae/index_reduction.hpp"
#include "hdae/models/andrews_squeezer_data.hpp"
#include "hdae/models/andrews_squeezer_terms.hpp"
#include "hdae/physics_model.hpp"

namespace hdae::models {

class AndrewsSqueezer final : public PhysicsModelOf<AndrewsSqueezer> {
 public:
  explicit AndrewsSqueezer(AndrewsSqueezerParameters p = {});
  void parameters_changed() override;
  void outputs(Evaluation& e) const override;

  template <class S>
  void residuals(Equations<S>& e) const {
    namespace as = andrews_squeezer;
    as::Angles<S> q, w, dq, dw;
    as::Loops<S> lambda;
    for (std::size_t k = 0; k < as::kBodies; ++k) {
      q[k] = e.x(q_[k]);
      w[k] = e.x(w_[k]);
      dq[k] = e.der(q_[k]);
      dw[k] = e.der(w_[k]);
    }
    for (std::size_t i = 0; i < as::kLoopRows; ++i) lambda[i] = e.x(lambda_[i]);
    const as::Configuration<S> c = as::configuration(p_, q);
    const as::Angles<S> inertia = as::inertia_torques(p_, c, dw);
    const as::Angles<S> applied = as::applied_torques(p_, c, w);
    const as::Angles<S> joints = as::joint_torques(as::loop_jacobian(c), lambda);
    for (std::size_t k = 0; k < as::kBodies; ++k) {
      e.set(kinematics_[k], dq[k] - w[k]);
      e.set(motion_[k], inertia[k] - applied[k] + joints[k]);
    }
    const as::Loops<S> g = as::loop_closure(p_, c);
    for (std::size_t i = 0; i < as::kLoopRows; ++i) e.set(loops_[i], g[i]);
  }

  [[nodiscard]] const AndrewsSqueezerParameters& parameters() const { return p_; }
  /// The angle k (0 beta, 1 Theta, ..., 6 epsilon), its angular velocity, joint force i.
  [[nodiscard]] Var angle(std::size_t k) const { return q_.at(k); }
  [[nodiscard]] Var angular_velocity(std::size_t k) const { return w_.at(k); }
  [[nodiscard]] Var joint_force(std::size_t i) const { return lambda_.at(i); }

 private:
  AndrewsSqueezerParameters p_;
  std::array<Var, 7> q_, w_;
  std::array<Var, 6> lambda_;
  std::array<Eq, 7> kinematics_, motion_;
  std::array<Eq, 6> loops_;
  Out kinetic_energy_, spring_energy_;
};

class AndrewsSqueezerIndex1 final : public PhysicsModelOf<AndrewsSqueezerIndex1> {
 public:
  /// ModelError when p.theta_offset_rad is not 0: this form cannot bring a start back onto
  /// the loops.
  explicit AndrewsSqueezerIndex1(AndrewsSqueezerParameters p = {});
  void parameters_changed() override;
  void outputs(Evaluation& e) const override;

  template <class S>
  void residuals(Equations<S>& e) const {
    namespace as = andrews_squeezer;
    as::Angles<S> q, w, a;
    as::Loops<S> lambda;
    for (std::size_t k = 0; k < as::kBodies; ++k) {
      q[k] = e.x(q_[k]);
      w[k] = e.x(w_[k]);
      a[k] = e.x(a_[k]);
      e.set(kinematics_[k], e.der(q_[k]) - w[k]);
      e.set(accelerations_[k], e.der(w_[k]) - a[k]);
    }
    for (std::size_t i = 0; i < as::kLoopRows; ++i) lambda[i] = e.x(lambda_[i]);
    const as::Configuration<S> c = as::configuration(p_, q);
    const as::LoopJacobian<S> jacobian = as::loop_jacobian(c);
    const as::Angles<S> inertia = as::inertia_torques(p_, c, a);
    const as::Angles<S> applied = as::applied_torques(p_, c, w);
    const as::Angles<S> joints = as::joint_torques(jacobian, lambda);
    for (std::size_t k = 0; k < as::kBodies; ++k) {
      e.set(motion_[k], inertia[k] - applied[k] + joints[k]);
    }
    const as::Loops<S> rates = as::loop_rates(jacobian, a);
    const as::Loops<S> curvature = as::loop_curvature(c, w);
    for (std::size_t i = 0; i < as::kLoopRows; ++i) e.set(loops_[i], rates[i] + curvature[i]);
  }

  [[nodiscard]] const AndrewsSqueezerParameters& parameters() const { return p_; }
  [[nodiscard]] Var angle(std::size_t k) const { return q_.at(k); }
  [[nodiscard]] Var angular_velocity(std::size_t k) const { return w_.at(k); }
  [[nodiscard]] Var angular_acceleration(std::size_t k) const { return a_.at(k); }
  [[nodiscard]] Var joint_force(std::size_t i) const { return lambda_.at(i); }

 private:
  AndrewsSqueezerParameters p_;
  std::array<Var, 7> q_, w_, a_;
  std::array<Var, 6> lambda_;
  std::array<Eq, 7> kinematics_, accelerations_, motion_;
  std::array<Eq, 6> loops_;
  Out kinetic_energy_, spring_energy_;
};

/// Andrews' squeezing mechanism, reduced to index 1 by the engine and ready to simulate.
[[nodiscard]] std::unique_ptr<IndexReducedModel> make_andrews_squeezer(
    AndrewsSqueezerParameters p = {});

}  // namespace hdae::models
