// Pendulum (ODE form): L = 0.5 m, m = 1 kg, d = 0.1 N m s, phi0 = 60 deg, 10 s.
// Usage: hdae-pendulum [output.csv]   (default results/pendulum.csv)
#include <filesystem>
#include <iostream>

#include "hdae/csv.hpp"
#include "hdae/models/pendulum.hpp"
#include "hdae/simulator.hpp"

int main(int argc, char** argv) {
  const std::filesystem::path out = argc > 1 ? argv[1] : "results/pendulum.csv";
  try {
    hdae::models::Pendulum model;
    hdae::SimulationOptions options;
    options.stop_s = 10.0;
    options.rel_tol = 1e-8;
    const hdae::SimulationResult result = hdae::simulate(model, options);
    if (out.has_parent_path()) std::filesystem::create_directories(out.parent_path());
    hdae::write_result_files(result, out);
    std::cout << hdae::summary(result) << '\n';
    std::cout << "phi(10) = " << result.table.final_value("phi")
              << " rad, w(10) = " << result.table.final_value("w") << " rad/s -> " << out.string()
              << '\n';
    return result.status.ok() ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "hdae-pendulum: " << e.what() << '\n';
    return 2;
  }
}
