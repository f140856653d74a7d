// Where the FMUs of the tests lie (built from tests/fmi/fmus/ into the build tree), the hdae
// program run on them in the tests' process, and what the tests compare them with.
#pragma once

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "hdae/hdae_program.hpp"
#include "hdae/model_builder.hpp"

namespace hdae::test {

/// <build>/tests/fmi/fmus/<name>.fmu
inline std::filesystem::path test_fmu(const std::string& name) {
  return std::filesystem::path(HDAE_TEST_FMU_DIR) / (name + ".fmu");
}

/// `hdae <args>` in this process: its exit status, its standard error into err.
inline int hdae_run(const std::vector<std::string>& args, std::string& err) {
  std::ostringstream out;
  std::ostringstream errors;
  const int status = cli::run_hdae(args, {out, errors, nullptr});
  err = errors.str();
  return status;
}

/// A run from 0 to stop_s with a row every interval_s: the output grid a Co-Simulation FMU is
/// stepped over.
inline SimulationOptions grid(double stop_s, double interval_s) {
  SimulationOptions o;
  o.stop_s = stop_s;
  o.output_interval_s = interval_s;
  return o;
}

/// The stair FMU's x (stair/model.c): der(x) = u, u stepping up by 1 at t = 1, 2, 3, ..., so
/// x(t) is the sum of (t - j) over the steps j <= t.
inline double stair_x(double t) {
  double x = 0.0;
  for (double j = 1.0; j <= t; j += 1.0) x += t - j;
  return x;
}

/// The van der Pol FMU's equations (van_der_pol/model.c) written as an hdae model, with its
/// Jacobian written out: der(x0) = x1, der(x1) = mu (1 - x0^2) x1 - x0.
class VanDerPol final : public Model {
 public:
  explicit VanDerPol(double mu) : Model("van_der_pol"), mu_(mu) {
    x0_ = declare_variable({.name = "x0", .start = 2.0});
    x1_ = declare_variable({.name = "x1"});
    e0_ = declare_equation("der(x0) = x1");
    e1_ = declare_equation("der(x1) = mu (1 - x0^2) x1 - x0");
  }
  void evaluate(Evaluation& e) override {
    e.set(e0_, e.der(x0_) - e.x(x1_));
    e.set(e1_, e.der(x1_) - (mu_ * (1.0 - e.x(x0_) * e.x(x0_)) * e.x(x1_) - e.x(x0_)));
  }
  [[nodiscard]] bool provides_jacobian() const override { return true; }
  void jacobian(double /*t*/, double cj, std::span<const double> x,
                std::span<const double> /*der_x*/, JacobianEntries& entries) override {
    entries.add(e0_, x0_, cj);
    entries.add(e0_, x1_, -1.0);
    entries.add(e1_, x0_, 2.0 * mu_ * x[0] * x[1] + 1.0);
    entries.add(e1_, x1_, cj - mu_ * (1.0 - x[0] * x[0]));
  }

 private:
  double mu_;
  Var x0_, x1_;
  Eq e0_, e1_;
};

}  // namespace hdae::test
