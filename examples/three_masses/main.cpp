// Three masses, two end stops hit at the same instant (the ITI paper, example 3): m = (1, 2, 3)
// kg, v = (2, 0, -1) m/s, restitution 0.6 at both stops; one event at t = 0.5 s whose single
// jump solve handles both impacts.
// Usage: hdae-three-masses [output.csv]   (default results/three_masses.csv)
#include <fmt/format.h>

#include "common/example_settings.hpp"
#include "common/run_example.hpp"
#include "hdae/models/three_masses.hpp"

int main(int argc, char** argv) {
  hdae::models::ThreeMasses model;
  const hdae::SimulationOptions options = hdae::examples::three_masses_options();
  return hdae::examples::run_example(
      "hdae-three-masses", model, options, hdae::examples::output_path(argc, argv, "three_masses"),
      [](const hdae::SimulationResult& r) {
        fmt::print("state events = {}, v(2) = ({:.6f}, {:.6f}, {:.6f}) m/s\n",
                   r.statistics.state_events, r.table.final_value("v1"), r.table.final_value("v2"),
                   r.table.final_value("v3"));
      });
}
