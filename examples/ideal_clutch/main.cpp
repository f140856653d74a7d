// Ideal clutch (Benveniste et al. 2019, ModiaMath's IdealClutch): engaged for t < 100 s and
// t >= 300 s, released in between; Dirac impulses at t = 0 and t = 300 s, none at 100 s.
// Usage: hdae-ideal-clutch [output.csv]   (default results/ideal_clutch.csv)
#include <fmt/format.h>

#include "common/example_settings.hpp"
#include "common/run_example.hpp"
#include "hdae/models/ideal_clutch.hpp"

int main(int argc, char** argv) {
  hdae::models::IdealClutch model;
  const hdae::SimulationOptions options = hdae::examples::ideal_clutch_options();
  return hdae::examples::run_example(
      "hdae-ideal-clutch", model, options, hdae::examples::output_path(argc, argv, "ideal_clutch"),
      [](const hdae::SimulationResult& r) {
        // Row 0 holds x^+(t0), the state after the initial jump.
        const std::size_t w1 = r.table.column_index("w1");
        fmt::print("w1(0+) = {:.6f} rad/s, w1(500) = {:.6f} rad/s, w2(500) = {:.6f} rad/s\n",
                   r.table.value(0, w1), r.table.final_value("w1"), r.table.final_value("w2"));
      });
}
