// hdae-make-references: regenerates the reference results references/<example>.csv (and
// <example>.units.csv) of the bundled examples (examples/registry/registry.cpp): each
// example's reference run (examples/registry/reference_run.hpp) at rel_tol 1e-10 (or the
// example's own Example::reference_rel_tol), keeping the example's reference signals. The tests
// check these files against the published and analytic answers (tests/compare/test_references.cpp).
// Usage: hdae-make-references [output_dir [example ...]]   (default: references, all)
// --help and --version exit 0; a bad argument exits 2 with "hdae-make-references: ...".
#include <algorithm>
#include <exception>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "hdae/csv.hpp"
#include "hdae/simulator.hpp"
#include "program/command_line.hpp"
#include "program/parse_arguments.hpp"
#include "registry/reference_run.hpp"
#include "registry/registry.hpp"

namespace {

/// Writes the reference files of the examples named in only (all when it is empty) into dir:
/// 0 when every one was written, 1 when a reference run failed, 2 for an unknown example.
int write_references(const std::filesystem::path& dir, const std::vector<std::string>& only) {
  for (const std::string& name : only) {
    if (hdae::examples::find_example(name) == nullptr) {
      std::cerr << "hdae-make-references: no example called '" << name << "'\n";
      return 2;
    }
  }
  std::filesystem::create_directories(dir);
  int failures = 0;
  for (const hdae::examples::Example& example : hdae::examples::registry()) {
    if (!only.empty() && std::find(only.begin(), only.end(), example.name) == only.end()) {
      continue;
    }
    hdae::SimulationOptions options = example.options;
    options.rel_tol = hdae::examples::reference_rel_tol(example);
    const auto model = hdae::examples::make_reference_model(example);
    const hdae::SimulationResult result = hdae::simulate(*model, options);
    if (!result.status.ok()) {
      std::cerr << "hdae-make-references: " << example.name << ": " << result.status.message
                << '\n';
      ++failures;
      continue;
    }
    const hdae::ResultTable table =
        hdae::examples::keep_columns(result.table, example.reference_signals);
    const std::filesystem::path csv = dir / (example.name + ".csv");
    hdae::write_csv(table, csv);
    hdae::write_units_csv(table, dir / (example.name + ".units.csv"));
    std::cout << csv.string() << ": " << table.num_rows() << " rows, "
              << result.statistics.state_events + result.statistics.time_events << " events\n";
  }
  return failures == 0 ? 0 : 1;
}

int make_references(int argc, char** argv) {
  CLI::App app{
      "Regenerates the reference results <output_dir>/<example>.csv of the bundled "
      "examples at the reference tolerance (all examples, or the ones named).",
      "hdae-make-references"};
  std::filesystem::path dir = "references";
  std::vector<std::string> only;
  app.add_option("output_dir", dir, "directory of the reference files")->capture_default_str();
  app.add_option("example", only, "examples to regenerate (default: all)");
  app.set_version_flag("--version", hdae::examples::version_text("hdae-make-references"));
  app.footer(
      "Exit status: 0 every reference written, 1 a reference run failed (the others are "
      "written), 2 an error (bad arguments, an unknown example, a file error).");
  // The arguments after the program name, answered as the other programs answer them.
  const std::vector<std::string> args(argv + std::min(argc, 1), argv + argc);
  if (const std::optional<int> done = hdae::examples::parse_arguments(
          app, args, "hdae-make-references", std::cout, std::cerr)) {
    return *done;
  }
  return write_references(dir, only);
}

}  // namespace

int main(int argc, char** argv) {
  // Every error, also one while the command line is read, ends with exit status 2 and a
  // message rather than an uncaught exception.
  try {
    return make_references(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "hdae-make-references: " << e.what() << '\n';
  } catch (...) {
    std::cerr << "hdae-make-references: an exception not derived from std::exception\n";
  }
  return 2;
}
