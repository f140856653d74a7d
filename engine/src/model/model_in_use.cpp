#include "model/model_in_use.hpp"

#include <fmt/format.h>

#include "hdae/errors.hpp"

namespace hdae::detail {

ModelInUse::ModelInUse(SimulationModel& model) : model_(model) {
  bool free = false;
  // One atomic exchange: of two runs started at once in two threads, exactly one gets the model.
  if (!model_.in_run_.compare_exchange_strong(free, true, std::memory_order_acq_rel)) {
    throw ModelError(
        fmt::format("model '{}' is already in use by another run; a model object serves one run "
                    "at a time (end the other run, or make a second model object)",
                    model_.structure().name));
  }
}

}  // namespace hdae::detail
