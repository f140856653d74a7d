// Ctrl-C during a run. While a run executes in C++ (with the GIL released, or in callbacks of
// a Python model) Python's own SIGINT handling cannot act, so for the duration of each call
// into the engine a C handler is installed that only sets the run's cancel flag
// (SimulationOptions::cancel, an async-signal-safe store); the engine then ends the run with
// Outcome::kInterrupted and the partial result comes back as usual. The previous handler is
// restored when the call returns. Only the main thread installs it (POSIX delivers SIGINT to
// the process, and Python runs its handlers in the main thread); runs in other threads (a
// thread pool of a sweep) are not interrupted this way.
#pragma once

#include <atomic>
#include <csignal>

namespace hdae::python {

class SigintScope {
 public:
  /// Installs the handler when called from Python's main thread; otherwise does nothing.
  explicit SigintScope(std::atomic<bool>& cancel);
  ~SigintScope();
  SigintScope(const SigintScope&) = delete;
  SigintScope& operator=(const SigintScope&) = delete;

 private:
  bool installed_ = false;
  std::atomic<bool>* previous_target_ = nullptr;
  struct sigaction previous_ {};
};

}  // namespace hdae::python
