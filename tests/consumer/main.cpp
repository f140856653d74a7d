// Uses only the installed public headers: a model of its own through the modelling layer, a
// bundled model from hdae::models, a comparison from hdae::compare, the FMU import of
// hdae::fmi, and an FMU of its own model made by hdae_add_fmu. Exit code 0 when the runs match
// their known answers, a result agrees with itself and a missing FMU is refused naming it.
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include "hdae/compare.hpp"
#include "hdae/errors.hpp"
#include "hdae/fmi.hpp"
#include "hdae/model_builder.hpp"
#include "hdae/models/pendulum.hpp"
#include "hdae/simulator.hpp"
#include "hdae/version.hpp"

namespace {

// x' = -k x with k = 1 while x >= 0.5 and k = 2 after the crossing: x = exp(-t) until
// t1 = ln 2, then x = 0.5 exp(-2 (t - t1)).
class SwitchedDecay final : public hdae::Model {
 public:
  SwitchedDecay() : Model("switched_decay") {
    x_ = declare_variable({.name = "x", .start = 1.0});
    ode_ = declare_equation("der(x) = -k*x");
    low_ = declare_crossing("x < 0.5");
  }
  void evaluate(hdae::Evaluation& e) override {
    const double k = e.negative(low_, e.x(x_) - 0.5) ? 2.0 : 1.0;
    e.set(ode_, e.der(x_) + k * e.x(x_));
  }

 private:
  hdae::Var x_;
  hdae::Eq ode_;
  hdae::Crossing low_;
};

bool near(const char* what, double value, double expected, double tol) {
  const bool ok = std::abs(value - expected) <= tol;
  std::printf("%s = %.8f, expected %.8f: %s\n", what, value, expected, ok ? "ok" : "WRONG");
  return ok;
}

}  // namespace

int main() {
  // The installed version header names the version the package was found at.
  std::printf("hdae %.*s\n", static_cast<int>(hdae::kVersion.size()), hdae::kVersion.data());
  hdae::SimulationOptions options;
  options.stop_s = 3.0;
  options.rel_tol = 1e-8;
  SwitchedDecay decay;
  const hdae::SimulationResult r1 = hdae::simulate(decay, options);
  // rel_tol 1e-8 over a contractive problem: global error well below 1e-6.
  const hdae::EventRecord* state_event = nullptr;
  for (const hdae::EventRecord& e : r1.events) {
    if (e.kind == hdae::EventKind::kState) state_event = &e;
  }
  const bool decay_ok =
      r1.status.ok() && state_event != nullptr &&
      near("x(3)", r1.table.final_value("x"), 0.5 * std::exp(-2.0 * (3.0 - std::log(2.0))), 1e-6) &&
      near("t_event", state_event->t, std::log(2.0), 1e-6);

  options.stop_s = 10.0;
  hdae::models::Pendulum pendulum;
  const hdae::SimulationResult r2 = hdae::simulate(pendulum, options);
  // phi(10) of the damped pendulum (L = 0.5 m, m = 1 kg, d = 0.1, phi0 = 60 deg), the value
  // ModiaMath's pendulum test reports to six digits, hence 1e-5.
  const bool pendulum_ok =
      r2.status.ok() && near("phi(10)", r2.table.final_value("phi"), 0.120289, 1e-5);
  const hdae::CompareReport self = hdae::compare_results(r2.table, r2.table, {});
  std::printf("pendulum result against itself: %s", self.brief_report().c_str());
  // hdae::fmi links from the install (libzip and pugixml found by the package): an FMU that
  // is not there is an IoError that names the file.
  bool fmi_ok = false;
  try {
    (void)hdae::fmi::load("no_such_model.fmu");
  } catch (const hdae::IoError& e) {
    fmi_ok = std::string(e.what()).find("no_such_model.fmu") != std::string::npos;
    std::printf("hdae::fmi::load of a missing FMU: %s (%s)\n", e.what(), fmi_ok ? "ok" : "WRONG");
  }
  // The consumer's own decay, exported by hdae_add_fmu and stepped as a Co-Simulation FMU:
  // x(1) = exp(-2) for T = 0.5 s; rel_tol 1e-8 inside the FMU, hence 1e-6.
  options.stop_s = 1.0;
  const std::unique_ptr<hdae::fmi::Fmu> own = hdae::fmi::load(HDAE_CONSUMER_FMU);
  const hdae::SimulationResult r3 = own->co_simulate(options);
  const bool own_ok = r3.status.ok() &&
                      near("x(1) of the own FMU", r3.table.final_value("x"), std::exp(-2.0), 1e-6);
  return decay_ok && pendulum_ok && self.agree && fmi_ok && own_ok ? 0 : 1;
}
