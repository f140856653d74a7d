// Marks a model as driven by a Simulator for the simulator's lifetime, so that set_parameter
// can refuse changes the run would not see (the run copied the start values and holds the
// structure; model.hpp, SimulationModel::in_simulation).
#pragma once

#include "hdae/model.hpp"

namespace hdae::detail {

class ModelInUse {
 public:
  explicit ModelInUse(SimulationModel& model) : model_(model) { ++model_.simulators_; }
  ~ModelInUse() { --model_.simulators_; }
  ModelInUse(const ModelInUse&) = delete;
  ModelInUse& operator=(const ModelInUse&) = delete;
  ModelInUse(ModelInUse&&) = delete;
  ModelInUse& operator=(ModelInUse&&) = delete;

 private:
  SimulationModel& model_;
};

}  // namespace hdae::detail
