// hdae-example and every hdae-<name> (links to it): the program takes its example from the
// name it was started under (launcher.hpp); Ctrl-C sets the cancel flag of the run, which
// then stops cleanly with status "interrupted" and keeps its rows. Progress lines go to standard
// error when it is a terminal.
#include <algorithm>
#include <exception>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "program/example_program.hpp"
#include "program/launcher.hpp"
#include "program/standard_environment.hpp"
#include "registry/registry.hpp"

int main(int argc, char** argv) {
  try {
    const std::string invoked_as =
        argc > 0 ? std::filesystem::path(argv[0]).filename().string() : "hdae-example";
    const std::vector<std::string> args(argv + std::min(argc, 1), argv + argc);
    const hdae::examples::ProgramEnvironment env = hdae::examples::standard_environment();
    if (const auto* example = hdae::examples::find_example_by_program(invoked_as)) {
      return hdae::examples::run_example_program(*example, invoked_as, args, env);
    }
    return hdae::examples::run_launcher(invoked_as, args, env);
  } catch (const std::exception& e) {
    std::cerr << "hdae-example: " << e.what() << '\n';
  } catch (...) {
    std::cerr << "hdae-example: an exception not derived from std::exception\n";
  }
  return 2;
}
