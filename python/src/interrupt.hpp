// Ctrl-C during a run. While a run executes in C++ with the GIL released Python's own SIGINT
// handling cannot act, so for the duration of each call into the engine a C handler is
// installed. For a model in C++ it sets the run's cancel flag (SimulationOptions::cancel, an
// async-signal-safe store): the engine ends the run with Outcome::kInterrupted and the partial
// result comes back as usual. For a model written in Python it hands the signal to Python
// (PyErr_SetInterruptEx, which a signal handler may call): the model's callback that runs
// then, or the next one, sees KeyboardInterrupt as Python code does anywhere (an evaluate()
// that sleeps is woken, one that loops is stopped), and it reaches the caller with the partial
// result attached. The previous handler is restored when the call returns; a process that
// ignores SIGINT (a background job) keeps ignoring it. Only the main thread installs the
// handler (POSIX delivers SIGINT to the process, and Python runs its handlers in the main
// thread); runs in other threads (a thread pool of a sweep) are not interrupted this way.
#pragma once

#include <atomic>
#include <csignal>

namespace hdae::python {

/// Where a SIGINT during a call into the engine goes.
enum class SigintRoute {
  kCancelFlag,  ///< a model in C++: the run ends with status "interrupted"
  kPython,      ///< a model in Python: KeyboardInterrupt in its callbacks
};

class SigintScope {
 public:
  /// Installs the handler when called from Python's main thread and SIGINT is not ignored;
  /// otherwise does nothing.
  SigintScope(std::atomic<bool>& cancel, SigintRoute route);
  ~SigintScope();
  SigintScope(const SigintScope&) = delete;
  SigintScope& operator=(const SigintScope&) = delete;

 private:
  bool installed_ = false;
  std::atomic<bool>* previous_target_ = nullptr;
  SigintRoute previous_route_ = SigintRoute::kCancelFlag;
  struct sigaction previous_ {};
};

}  // namespace hdae::python
