// The environment of a program started from a shell (hdae-example and its links, hdae).
#pragma once

#include "program/example_program.hpp"

namespace hdae::examples {

/// std::cout and std::cerr, a cancel flag that Ctrl-C (SIGINT) and SIGTERM set from this call on
/// (the run then stops cleanly with status "interrupted" and keeps its rows), progress lines
/// when standard error is a terminal, and SIGXFSZ ignored (a file beyond ulimit -f is an error
/// of its write).
[[nodiscard]] ProgramEnvironment standard_environment();

}  // namespace hdae::examples
