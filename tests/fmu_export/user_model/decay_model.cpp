// A user's own model made into an FMU by hdae_add_fmu (tests/CMakeLists.txt): exponential decay
// der(x) = -x / T with x(0) = 1 m, T = 0.5 s, and an output y = 2 x. Its factory is the
// function hdae_add_fmu is given.
#include <memory>

#include "hdae/model_builder.hpp"

namespace {

class Decay final : public hdae::Model {
 public:
  Decay() : Model("user_decay") {
    T_ = declare_parameter({.name = "T", .unit = "s", .value = 0.5, .min = 1e-9});
    x_ = declare_variable({.name = "x", .unit = "m", .start = 1.0, .der_unit = "m/s"});
    eq_ = declare_equation("der(x) = -x/T");
    y_ = declare_output("y", "m");
  }
  void evaluate(hdae::Evaluation& e) override {
    e.set(eq_, e.der(x_) + e.x(x_) / value(T_));
    e.set(y_, 2.0 * e.x(x_));
  }

 private:
  hdae::Param T_;
  hdae::Var x_;
  hdae::Eq eq_;
  hdae::Out y_;
};

}  // namespace

std::unique_ptr<hdae::SimulationModel> make_user_decay() { return std::make_unique<Decay>(); }
