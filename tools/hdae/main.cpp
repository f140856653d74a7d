// hdae: list, describe and run the bundled models, compare and plot results
// (hdae_program.hpp). Ctrl-C stops a run cleanly (its rows are written); progress lines go to
// standard error only when it is a terminal.
#include <algorithm>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "hdae_program.hpp"
#include "program/standard_environment.hpp"

int main(int argc, char** argv) {
  try {
    const std::vector<std::string> args(argv + std::min(argc, 1), argv + argc);
    return hdae::cli::run_hdae(args, hdae::examples::standard_environment());
  } catch (const std::exception& e) {
    std::cerr << "hdae: " << e.what() << '\n';
  } catch (...) {
    std::cerr << "hdae: an exception not derived from std::exception\n";
  }
  return 2;
}
