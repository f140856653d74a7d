// Where scripts/plot.py is, for the programs that draw plots (hdae-compare --report, hdae plot).
#pragma once

#include <filesystem>

namespace hdae::compare {

/// scripts/plot.py: $HDAE_PLOT_SCRIPT, else the installed copy beside an installed program
/// (<prefix>/bin/<program> -> <prefix>/share/hdae/plot.py), else the source tree's.
[[nodiscard]] std::filesystem::path plot_script();

/// The interpreter for it: $HDAE_PYTHON, else Debian's /usr/bin/python3, which carries
/// python3-matplotlib (another python3 may come first on PATH).
[[nodiscard]] std::filesystem::path plot_python();

}  // namespace hdae::compare
