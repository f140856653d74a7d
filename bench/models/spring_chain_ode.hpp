// The chain of models::MassSpringChain with its spring forces put into the momentum rows: an
// explicit ODE in the displacements s_i and velocities v_i, the form an ODE solver such as
// SciPy's takes (bench/work_precision.py writes the same right-hand side in numpy):
//   der(s_i) = v_i
//   m der(v_i) = k (s_{i+1} - s_i) - k (s_i - s_{i-1}) - d v_i   (s_0 = 0; no s_{N+1} term)
// From the uniformly stretched chain at rest, s_i = s_end i / N. Frequencies up to
// 2 sqrt(k / m) = 20 rad/s for the defaults: not stiff.
#pragma once

#include <cstddef>

#include "hdae/model_builder.hpp"

namespace hdae::bench {

struct SpringChainOdeParameters {
  std::size_t masses = 100;
  double mass_kg = 1.0;
  double stiffness_npm = 100.0;
  double damping_nspm = 0.5;
  double end_displacement_m = 1.0;
};

class SpringChainOde final : public Model {
 public:
  explicit SpringChainOde(SpringChainOdeParameters p = {});
  void evaluate(Evaluation& e) override;

 private:
  SpringChainOdeParameters p_;
  Vars s_, v_;
  Eqs kinematics_, dynamics_;
};

}  // namespace hdae::bench
