// Bouncing ball: h0 = 1 m, e = 0.7, comes to rest when the rebound speed is below 0.01 m/s.
// Usage: hdae-bouncing-ball [output.csv]   (default results/bouncing_ball.csv)
#include <fmt/format.h>

#include "common/example_settings.hpp"
#include "common/run_example.hpp"
#include "hdae/models/bouncing_ball.hpp"

int main(int argc, char** argv) {
  hdae::models::BouncingBall model;
  const hdae::SimulationOptions options = hdae::examples::bouncing_ball_options();
  return hdae::examples::run_example("hdae-bouncing-ball", model, options,
                                     hdae::examples::output_path(argc, argv, "bouncing_ball"),
                                     [&model](const hdae::SimulationResult& r) {
                                       fmt::print("{} impacts, at rest: {}\n",
                                                  r.statistics.state_events,
                                                  model.flying() ? "no" : "yes");
                                     });
}
