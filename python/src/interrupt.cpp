#include "interrupt.hpp"

#include <pybind11/pybind11.h>

namespace py = pybind11;

namespace hdae::python {

namespace {

/// The cancel flag of the run in the main thread; lock-free, so the handler may store to it.
std::atomic<std::atomic<bool>*> sigint_target{nullptr};
static_assert(std::atomic<std::atomic<bool>*>::is_always_lock_free);
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void on_sigint(int /*signal*/) {
  if (std::atomic<bool>* flag = sigint_target.load()) flag->store(true);
}

bool in_main_thread() {
  py::module_ threading = py::module_::import("threading");
  return threading.attr("current_thread")().is(threading.attr("main_thread")());
}

}  // namespace

SigintScope::SigintScope(std::atomic<bool>& cancel) {
  if (!in_main_thread()) return;
  previous_target_ = sigint_target.exchange(&cancel);
  struct sigaction action {};
  action.sa_handler = on_sigint;
  sigemptyset(&action.sa_mask);
  installed_ = sigaction(SIGINT, &action, &previous_) == 0;
  if (!installed_) sigint_target.store(previous_target_);
}

SigintScope::~SigintScope() {
  if (!installed_) return;
  sigaction(SIGINT, &previous_, nullptr);
  sigint_target.store(previous_target_);
}

}  // namespace hdae::python
