// The environment of a program started from a shell (standard_environment.hpp).
#include "program/standard_environment.hpp"

#include <unistd.h>

#include <atomic>
#include <csignal>
#include <iostream>

namespace hdae::examples {
namespace {

std::atomic<bool> interrupted{false};

extern "C" void on_stop_signal(int /*signal*/) { interrupted.store(true); }

}  // namespace

ProgramEnvironment standard_environment() {
  ProgramEnvironment env{std::cout, std::cerr, &interrupted};
  env.show_progress = isatty(STDERR_FILENO) == 1;
  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGTERM, on_stop_signal);
  // A file that outgrows the file size limit (ulimit -f) would kill the program without a word
  // and leave its temporaries; ignored, the write fails with EFBIG ("File too large"), which the
  // writers report naming the file (exit status 2) while the previous result stays.
  std::signal(SIGXFSZ, SIG_IGN);
  return env;
}

}  // namespace hdae::examples
