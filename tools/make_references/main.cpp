// hdae-make-references: regenerates the reference results references/<example>.csv (and
// <example>.units.csv) by running each bundled example's model with the example's settings
// but rel_tol 1e-10, keeping only a few columns. The tests check these files against the
// published and analytic answers (tests/compare/test_references.cpp).
// Usage: hdae-make-references [output_dir [example ...]]   (default: references, all)
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "example_runs.hpp"
#include "hdae/csv.hpp"
#include "hdae/simulator.hpp"

int main(int argc, char** argv) {
  const std::filesystem::path dir = argc > 1 ? argv[1] : "references";
  const std::vector<std::string> only(argv + std::min(argc, 2), argv + argc);
  try {
    std::filesystem::create_directories(dir);
    int failures = 0;
    for (hdae::references::ExampleRun& run : hdae::references::example_runs()) {
      if (!only.empty() && std::find(only.begin(), only.end(), run.name) == only.end()) continue;
      run.options.rel_tol = hdae::references::kReferenceRelTol;
      const auto model = run.make_model();
      const hdae::SimulationResult result = hdae::simulate(*model, run.options);
      if (!result.status.ok()) {
        std::cerr << "hdae-make-references: " << run.name << ": " << result.status.message << '\n';
        ++failures;
        continue;
      }
      const hdae::ResultTable table = hdae::references::keep_columns(result.table, run.signals);
      const std::filesystem::path csv = dir / (run.name + ".csv");
      hdae::write_csv(table, csv);
      hdae::write_units_csv(table, dir / (run.name + ".units.csv"));
      std::cout << csv.string() << ": " << table.num_rows() << " rows, "
                << result.statistics.state_events + result.statistics.time_events << " events\n";
    }
    return failures == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "hdae-make-references: " << e.what() << '\n';
    return 2;
  }
}
