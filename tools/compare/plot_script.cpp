// Locating scripts/plot.py and its interpreter (plot_script.hpp).
#include "compare/plot_script.hpp"

#include <cstdlib>
#include <system_error>

namespace hdae::compare {

std::filesystem::path plot_script() {
  if (const char* script = std::getenv("HDAE_PLOT_SCRIPT")) return script;
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    std::filesystem::path installed = exe.parent_path().parent_path() / HDAE_INSTALLED_PLOT_SCRIPT;
    if (std::filesystem::exists(installed, ec)) return installed;
  }
  return HDAE_PLOT_SCRIPT;
}

std::filesystem::path plot_python() {
  if (const char* python = std::getenv("HDAE_PYTHON")) return python;
  return "/usr/bin/python3";
}

}  // namespace hdae::compare
