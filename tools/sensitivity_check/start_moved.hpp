// A model with one start value moved (for the perturbed runs of the sensitivity check, whose
// sources include start values "start(<variable>)"): the model itself in every call, only its
// structure's start value of that unknown shifted, with those the model derives from it where
// it makes its start consistent itself (SimulationModel::vary_start). The structure is the model's,
// copied again after every call that may change it (reset, the event handler), so a model that
// replaces its sparsity pattern or row kinds at an event is seen as it is.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "hdae/model.hpp"

namespace hdae::sensitivity_check {

class StartMoved final : public SimulationModel {
 public:
  /// model with the start value of unknown j moved by delta.
  StartMoved(SimulationModel& model, std::size_t j, double delta);

  [[nodiscard]] const ModelStructure& structure() const override { return structure_; }
  void evaluate(Evaluation& e) override { model_.evaluate(e); }
  void on_event(EventContext& event) override;
  [[nodiscard]] bool provides_jacobian() const override { return model_.provides_jacobian(); }
  void jacobian(double t, double cj, std::span<const double> x, std::span<const double> der_x,
                JacobianEntries& entries) override {
    model_.jacobian(t, cj, x, der_x, entries);
  }
  [[nodiscard]] bool newton_matrix_aged() override { return model_.newton_matrix_aged(); }
  [[nodiscard]] bool provides_constraint_time_derivative() const override {
    return model_.provides_constraint_time_derivative();
  }
  void constraint_time_derivative(double t, std::span<const double> x,
                                  std::span<double> dfc_dt) override {
    model_.constraint_time_derivative(t, x, dfc_dt);
  }
  void reset() override;
  [[nodiscard]] std::string failure_note(double t, std::span<const double> x,
                                         std::span<const double> der_x) override {
    return model_.failure_note(t, x, der_x);
  }

 private:
  /// The model's structure with the start value moved.
  void copy_structure();

  SimulationModel& model_;
  std::size_t j_ = 0;
  double delta_ = 0.0;
  ModelStructure structure_;
  /// Every unknown's start value when the model moves them with this one
  /// (SimulationModel::vary_start), else empty: only unknown j's moves.
  std::vector<double> starts_;
};

}  // namespace hdae::sensitivity_check
