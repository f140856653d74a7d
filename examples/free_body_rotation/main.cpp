// Free rigid body rotation with a quaternion (ModiaMath's FreeBodyRotation): I = diag(1, 2, 3),
// sinusoidal torques, unnormalised start Q0 = (0.1, 0.5, 0, 1) projected onto |Q| = 1; 5 s.
// Usage: hdae-free-body-rotation [output.csv]   (default results/free_body_rotation.csv)
#include <fmt/format.h>

#include "common/example_settings.hpp"
#include "common/run_example.hpp"
#include "hdae/models/free_body_rotation.hpp"

int main(int argc, char** argv) {
  hdae::models::FreeBodyRotation model;
  const hdae::SimulationOptions options = hdae::examples::free_body_rotation_options();
  return hdae::examples::run_example(
      "hdae-free-body-rotation", model, options,
      hdae::examples::output_path(argc, argv, "free_body_rotation"),
      [](const hdae::SimulationResult& r) {
        const std::size_t q4 = r.table.column_index("Q4");
        fmt::print("Q4(0+) = {:.7f}, |Q|(5) = {:.12f}, w = ({:.6f}, {:.6f}, {:.6f}) rad/s\n",
                   r.table.value(0, q4), r.table.final_value("|Q|"), r.table.final_value("w1"),
                   r.table.final_value("w2"), r.table.final_value("w3"));
      });
}
