#include "hdae/physics_model.hpp"

namespace hdae {

void PhysicsModel::evaluate(Evaluation& e) {
  Equations<double> eqs(e.t(), e.x(), e.der_x(), e.residuals());
  residuals_of(eqs);
  if (e.wants_outputs()) outputs(e);
}

}  // namespace hdae
