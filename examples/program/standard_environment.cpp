// The environment of a program started from a shell (standard_environment.hpp).
#include "program/standard_environment.hpp"

#include <unistd.h>

#include <atomic>
#include <csignal>
#include <iostream>

namespace hdae::examples {
namespace {

std::atomic<bool> interrupted{false};

extern "C" void on_sigint(int /*signal*/) { interrupted.store(true); }

}  // namespace

ProgramEnvironment standard_environment() {
  ProgramEnvironment env{std::cout, std::cerr, &interrupted};
  env.show_progress = isatty(STDERR_FILENO) == 1;
  std::signal(SIGINT, on_sigint);
  return env;
}

}  // namespace hdae::examples
