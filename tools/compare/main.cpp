// hdae-compare: decides whether a result CSV agrees with a reference CSV within a tube,
// aware of events (compare/include/hdae/compare.hpp). The program's logic lives in
// tools/compare/compare_cli.cpp; `hdae-compare --help` prints the usage.
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <system_error>
#include <vector>

#include "compare/compare_cli.hpp"

namespace {

/// scripts/plot.py: $HDAE_PLOT_SCRIPT, else the installed copy beside an installed program
/// (<prefix>/bin/hdae-compare -> <prefix>/share/hdae/plot.py), else the source tree's.
std::filesystem::path plot_script() {
  if (const char* script = std::getenv("HDAE_PLOT_SCRIPT")) return script;
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const std::filesystem::path installed =
        exe.parent_path().parent_path() / HDAE_INSTALLED_PLOT_SCRIPT;
    if (std::filesystem::exists(installed, ec)) return installed;
  }
  return HDAE_PLOT_SCRIPT;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  hdae::compare::PlotEnvironment plots;
  plots.plot_script = plot_script();
  // Debian's interpreter carries python3-matplotlib; another python3 may come first on PATH.
  if (const char* python = std::getenv("HDAE_PYTHON")) plots.python = python;
  return hdae::compare::run_compare(args, std::cout, std::cerr, plots);
}
