// Bouncing ball: h0 = 1 m, e = 0.7, comes to rest when the rebound speed is below 0.01 m/s.
// Usage: hdae-bouncing-ball [output.csv]   (default results/bouncing_ball.csv)
#include <filesystem>
#include <iostream>

#include "hdae/csv.hpp"
#include "hdae/models/bouncing_ball.hpp"
#include "hdae/simulator.hpp"

int main(int argc, char** argv) {
  const std::filesystem::path out = argc > 1 ? argv[1] : "results/bouncing_ball.csv";
  try {
    hdae::models::BouncingBall model;
    hdae::SimulationOptions options;
    options.stop_s = 3.0;
    options.rel_tol = 1e-8;
    const hdae::SimulationResult result = hdae::simulate(model, options);
    if (out.has_parent_path()) std::filesystem::create_directories(out.parent_path());
    hdae::write_result_files(result, out);
    std::cout << hdae::summary(result) << '\n';
    std::cout << result.statistics.state_events
              << " impacts, at rest: " << (model.flying() ? "no" : "yes") << " -> " << out.string()
              << '\n';
    return result.status.ok() ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "hdae-bouncing-ball: " << e.what() << '\n';
    return 2;
  }
}
