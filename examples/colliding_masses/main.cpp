// Two colliding masses: equal masses, plastic impact (e = 0), u1 = 1 m/s, u2 = 0; the impulse
// comes from the jump solve alone. Both move on at 0.5 m/s.
// Usage: hdae-colliding-masses [output.csv]   (default results/colliding_masses.csv)
#include <fmt/format.h>

#include "common/example_settings.hpp"
#include "common/run_example.hpp"
#include "hdae/models/colliding_masses.hpp"

int main(int argc, char** argv) {
  hdae::models::CollidingMasses model;
  const hdae::SimulationOptions options = hdae::examples::colliding_masses_options();
  return hdae::examples::run_example(
      "hdae-colliding-masses", model, options,
      hdae::examples::output_path(argc, argv, "colliding_masses"),
      [&model](const hdae::SimulationResult& r) {
        fmt::print("impacts = {}, v1(2) = {:.6f} m/s, v2(2) = {:.6f} m/s, p_int(2) = {:.6f} N s\n",
                   model.impacts(), r.table.final_value("v1"), r.table.final_value("v2"),
                   r.table.final_value("p_int"));
      });
}
