// The residual the structure analysis works on: the model's F(t, x, der_x) with some rows
// replaced by linear combinations of rows (the corrections of hdae/structure.hpp, step 3).
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "hdae/structure.hpp"

namespace hdae::structure {

class SystemResidual {
 public:
  explicit SystemResidual(SimulationModel& model) : model_(model) {}

  [[nodiscard]] const ModelStructure& structure() const { return model_.structure(); }
  [[nodiscard]] std::size_t size() const { return model_.structure().num_unknowns(); }
  [[nodiscard]] const std::vector<RowCombination>& corrections() const { return corrections_; }
  void add_correction(RowCombination combination) {
    corrections_.push_back(std::move(combination));
  }
  void drop_last_correction() { corrections_.pop_back(); }

  /// r = F(t, x, der_x) with the corrections applied in order; raw, when not empty, gets F
  /// itself. The model sees a continuous evaluation without crossing table: its crossing
  /// helpers report the sign of the value.
  void evaluate(double t, std::span<const double> x, std::span<const double> der_x,
                std::span<double> r, std::span<double> raw = {}) const;
  /// The model rows each row of the corrected system is made of (itself when uncorrected).
  [[nodiscard]] std::vector<std::vector<std::size_t>> raw_support() const;

 private:
  SimulationModel& model_;
  std::vector<RowCombination> corrections_;
};

}  // namespace hdae::structure
