// A model of the consumer's own that hdae_add_fmu makes into an FMU with the installed hdae
// (CMakeLists.txt): der(x) = -x / T, x(0) = 1, T = 0.5 s, so x(t) = exp(-2 t).
#include <memory>

#include "hdae/model_builder.hpp"

namespace {

class Decay final : public hdae::Model {
 public:
  Decay() : Model("consumer_decay") {
    T_ = declare_parameter({.name = "T", .unit = "s", .value = 0.5, .min = 1e-9});
    x_ = declare_variable({.name = "x", .start = 1.0});
    eq_ = declare_equation("der(x) = -x/T");
  }
  void evaluate(hdae::Evaluation& e) override { e.set(eq_, e.der(x_) + e.x(x_) / value(T_)); }

 private:
  hdae::Param T_;
  hdae::Var x_;
  hdae::Eq eq_;
};

}  // namespace

std::unique_ptr<hdae::SimulationModel> make_consumer_decay() { return std::make_unique<Decay>(); }
