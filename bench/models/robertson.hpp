// Robertson's stiff chemical kinetics (Robertson 1966; the classic stiff test problem of
// Hairer and Wanner) as an index-1 DAE, written with the modelling layer:
//   der(y1) = -k1 y1 + k3 y2 y3
//   der(y2) =  k1 y1 - k3 y2 y3 - k2 y2^2
//   0       =  y1 + y2 + y3 - 1           (mass balance, f_c row: y3 is algebraic)
// k1 = 0.04, k2 = 3e7, k3 = 1e4; y(0) = (1, 0, 0). y2 stays below about 4e-5, so its nominal
// value is 1e-4 (its absolute tolerance scales with it).
#pragma once

#include "hdae/model_builder.hpp"

namespace hdae::bench {

struct RobertsonParameters {
  double k1 = 0.04;
  double k2 = 3e7;
  double k3 = 1e4;
};

class Robertson final : public Model {
 public:
  explicit Robertson(RobertsonParameters p = {});
  void evaluate(Evaluation& e) override;

 private:
  RobertsonParameters p_;
  Var y1_, y2_, y3_;
  Eq reaction1_, reaction2_, balance_;
};

/// The same kinetics as an explicit ODE, the mass balance replaced by y3's own rate (the form
/// of Hairer and Wanner and of SciPy's solvers):
///   der(y3) = k2 y2^2
class RobertsonOde final : public Model {
 public:
  explicit RobertsonOde(RobertsonParameters p = {});
  void evaluate(Evaluation& e) override;

 private:
  RobertsonParameters p_;
  Var y1_, y2_, y3_;
  Eq reaction1_, reaction2_, reaction3_;
};

}  // namespace hdae::bench
