// Marks a model as in a run for the run's lifetime: a second run on the same model is refused
// (it would reset the model's modes under the first one), and set_parameter and the
// declarations refuse changes the run would not see (the run copied the start values and
// holds the structure; model.hpp, SimulationModel::in_simulation).
#pragma once

#include "hdae/model.hpp"

namespace hdae::detail {

class ModelInUse {
 public:
  /// Claims model; ModelError when it is already in a run (in this thread or another).
  explicit ModelInUse(SimulationModel& model);
  ~ModelInUse() { release(); }
  ModelInUse(const ModelInUse&) = delete;
  ModelInUse& operator=(const ModelInUse&) = delete;
  ModelInUse(ModelInUse&&) = delete;
  ModelInUse& operator=(ModelInUse&&) = delete;

  /// Gives the model free before the run object ends (the run has ended: take_result).
  void release() {
    if (held_) model_.in_run_.store(false, std::memory_order_release);
    held_ = false;
  }

 private:
  SimulationModel& model_;
  bool held_ = true;
};

}  // namespace hdae::detail
