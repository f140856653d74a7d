// Pendulum in stabilised index-1 GGL form (ModiaMath's PendulumDAE): started off its circle at
// x = 0.5, y = -0.5, vx = vy = 1 and projected onto it; 2 s. Pass --fixed as the second
// argument to keep x and vx at their start values.
// Usage: hdae-pendulum-dae [output.csv [--fixed]]   (default results/pendulum_dae.csv)
#include <string_view>

#include <fmt/format.h>

#include "common/example_settings.hpp"
#include "common/run_example.hpp"
#include "hdae/models/pendulum_dae.hpp"

int main(int argc, char** argv) {
  hdae::models::PendulumDaeParameters p;
  p.fix_x_and_vx = argc > 2 && std::string_view(argv[2]) == "--fixed";
  hdae::models::PendulumDae model(p);
  const hdae::SimulationOptions options = hdae::examples::pendulum_dae_options();
  return hdae::examples::run_example(
      "hdae-pendulum-dae", model, options, hdae::examples::output_path(argc, argv, "pendulum_dae"),
      [](const hdae::SimulationResult& r) {
        const std::size_t y = r.table.column_index("y");
        const std::size_t vy = r.table.column_index("vy");
        fmt::print("y(0+) = {:.7f} m, vy(0+) = {:.7f} m/s, x(2) = {:.6f} m, y(2) = {:.6f} m\n",
                   r.table.value(0, y), r.table.value(0, vy), r.table.final_value("x"),
                   r.table.final_value("y"));
      });
}
