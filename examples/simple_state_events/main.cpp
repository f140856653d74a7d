// Simple state events: a spring-mass pushed by a force that switches at s = 0; 10 s.
// Usage: hdae-simple-state-events [output.csv]   (default results/simple_state_events.csv)
#include <filesystem>
#include <iostream>

#include "hdae/csv.hpp"
#include "hdae/models/simple_state_events.hpp"
#include "hdae/simulator.hpp"

int main(int argc, char** argv) {
  const std::filesystem::path out = argc > 1 ? argv[1] : "results/simple_state_events.csv";
  try {
    hdae::models::SimpleStateEvents model;
    hdae::SimulationOptions options;
    options.stop_s = 10.0;
    options.output_interval_s = 0.1;
    options.rel_tol = 1e-8;
    const hdae::SimulationResult result = hdae::simulate(model, options);
    if (out.has_parent_path()) std::filesystem::create_directories(out.parent_path());
    hdae::write_result_files(result, out);
    std::cout << hdae::summary(result) << '\n';
    std::cout << result.statistics.state_events << " state events -> " << out.string() << '\n';
    return result.status.ok() ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "hdae-simple-state-events: " << e.what() << '\n';
    return 2;
  }
}
