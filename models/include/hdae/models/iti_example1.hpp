// Example 1 of the ITI paper on initial values of DAEs of higher index:
//   x1 = t,  x2 = der(x1)
// Index 2: x2 is algebraic, and the first row differentiated once (the hidden constraint
// der(x1) = 1) fixes x2 = 1 whatever start value x2 is given. The engine finds this by index
// reduction (hdae/index_reduction.hpp): make_iti_example1() wraps the model in an
// IndexReducedModel, which runs like any other model.
// Parameters (set_parameter): x2_start.
#pragma once

#include <memory>

#include "hdae/index_reduction.hpp"
#include "hdae/physics_model.hpp"

namespace hdae::models {

struct ItiExample1Parameters {
  double x2_start = 5.0;  ///< a guess the hidden constraint overrides (x2 = 1)
};

class ItiExample1 final : public PhysicsModelOf<ItiExample1> {
 public:
  explicit ItiExample1(ItiExample1Parameters p = {});
  void parameters_changed() override;

  template <class S>
  void residuals(Equations<S>& e) const {
    e.set(prescribed_, e.x(x1_) - e.t());
    e.set(derivative_, e.x(x2_) - e.der(x1_));
  }

 private:
  ItiExample1Parameters p_;
  Var x1_, x2_;
  Eq prescribed_, derivative_;
};

/// The model reduced to index 1 (no states: both unknowns follow from t).
[[nodiscard]] std::unique_ptr<IndexReducedModel> make_iti_example1(ItiExample1Parameters p = {});

}  // namespace hdae::models
