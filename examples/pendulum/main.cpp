// Pendulum (ODE form): L = 0.5 m, m = 1 kg, d = 0.1 N m s, phi0 = 60 deg, 10 s.
// Usage: hdae-pendulum [output.csv]   (default results/pendulum.csv)
#include <fmt/format.h>

#include "common/example_settings.hpp"
#include "common/run_example.hpp"
#include "hdae/models/pendulum.hpp"

int main(int argc, char** argv) {
  hdae::models::Pendulum model;
  const hdae::SimulationOptions options = hdae::examples::pendulum_options();
  return hdae::examples::run_example(
      "hdae-pendulum", model, options, hdae::examples::output_path(argc, argv, "pendulum"),
      [](const hdae::SimulationResult& r) {
        fmt::print("phi(10) = {:.6f} rad, w(10) = {:.6f} rad/s\n", r.table.final_value("phi"),
                   r.table.final_value("w"));
      });
}
