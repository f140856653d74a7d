// What every example program does around its model: take the output CSV path from the
// command line, let Ctrl-C end the run cleanly (SIGINT sets SimulationOptions::cancel, the
// run stops with status "interrupted" and keeps its rows), write the CSV, units and event
// log even when the run failed, print the summary, and map the outcome to an exit code:
// 0 success, 1 the run stopped early (the files hold what was computed), 2 an error.
#pragma once

#include <atomic>
#include <csignal>
#include <exception>
#include <filesystem>
#include <iostream>
#include <string>

#include "hdae/csv.hpp"
#include "hdae/errors.hpp"
#include "hdae/simulator.hpp"

namespace hdae::examples {

inline std::atomic<bool>& interrupt_flag() {
  static std::atomic<bool> flag{false};
  return flag;
}

extern "C" inline void on_sigint(int /*signal*/) { interrupt_flag().store(true); }

/// Output path: argv[1] when given, else results/<default_name>.csv.
inline std::filesystem::path output_path(int argc, char** argv, const std::string& default_name) {
  return argc > 1 ? std::filesystem::path(argv[1])
                  : std::filesystem::path("results") / (default_name + ".csv");
}

inline void write_files(const SimulationResult& result, const std::filesystem::path& out) {
  if (out.has_parent_path()) std::filesystem::create_directories(out.parent_path());
  write_result_files(result, out);
}

/// Runs model with options and reports; report(result) prints the example's key numbers.
template <typename Report>
int run_example(const std::string& program, SimulationModel& model, SimulationOptions options,
                const std::filesystem::path& out, Report&& report) {
  std::signal(SIGINT, on_sigint);
  options.cancel = &interrupt_flag();
  try {
    const SimulationResult result = simulate(model, options);
    write_files(result, out);
    std::cout << summary(result) << '\n';
    if (result.table.num_rows() > 0) report(result);
    std::cout << "-> " << out.string() << '\n';
    return result.status.ok() ? 0 : 1;
  } catch (const ModelCallbackError& e) {
    std::cerr << program << ": " << e.what() << '\n';
    if (e.partial_result()) {
      write_files(*e.partial_result(), out);
      std::cerr << program << ": partial result written to " << out.string() << '\n';
    }
    return 2;
  } catch (const std::exception& e) {
    std::cerr << program << ": " << e.what() << '\n';
    return 2;
  }
}

}  // namespace hdae::examples
