#include "interrupt.hpp"

#include <pybind11/pybind11.h>

namespace py = pybind11;

namespace hdae::python {

namespace {

/// The cancel flag of the run in the main thread and where the signal goes; lock-free, so the
/// handler may read and store them.
std::atomic<std::atomic<bool>*> sigint_target{nullptr};
std::atomic<SigintRoute> sigint_route{SigintRoute::kCancelFlag};
static_assert(std::atomic<std::atomic<bool>*>::is_always_lock_free);
static_assert(std::atomic<bool>::is_always_lock_free);
static_assert(std::atomic<SigintRoute>::is_always_lock_free);

extern "C" void on_sigint(int /*signal*/) {
  if (sigint_route.load() == SigintRoute::kPython) {
    PyErr_SetInterruptEx(SIGINT);
  } else if (std::atomic<bool>* flag = sigint_target.load()) {
    flag->store(true);
  }
}

bool in_main_thread() {
  py::module_ threading = py::module_::import("threading");
  return threading.attr("current_thread")().is(threading.attr("main_thread")());
}

}  // namespace

SigintScope::SigintScope(std::atomic<bool>& cancel, SigintRoute route) {
  if (!in_main_thread()) return;
  // A process that ignores SIGINT (started in the background) goes on ignoring it.
  struct sigaction current {};
  if (sigaction(SIGINT, nullptr, &current) == 0 && current.sa_handler == SIG_IGN) return;
  previous_target_ = sigint_target.exchange(&cancel);
  previous_route_ = sigint_route.exchange(route);
  struct sigaction action {};
  action.sa_handler = on_sigint;
  sigemptyset(&action.sa_mask);
  installed_ = sigaction(SIGINT, &action, &previous_) == 0;
  if (!installed_) {
    sigint_target.store(previous_target_);
    sigint_route.store(previous_route_);
  }
}

SigintScope::~SigintScope() {
  if (!installed_) return;
  sigaction(SIGINT, &previous_, nullptr);
  sigint_target.store(previous_target_);
  sigint_route.store(previous_route_);
}

}  // namespace hdae::python
