// hdae-compare: decides whether a result CSV agrees with a reference CSV within a tube,
// aware of events (compare/include/hdae/compare.hpp). The program's logic lives in
// tools/compare/compare_cli.cpp; `hdae-compare --help` prints the usage.
#include <iostream>
#include <string>
#include <vector>

#include "compare/compare_cli.hpp"
#include "compare/plot_script.hpp"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  hdae::compare::PlotEnvironment plots;
  plots.plot_script = hdae::compare::plot_script();
  plots.python = hdae::compare::plot_python();
  return hdae::compare::run_compare(args, std::cout, std::cerr, plots);
}
