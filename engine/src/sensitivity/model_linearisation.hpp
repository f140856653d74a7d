// The model's rows linearised at a point from its own exact Jacobian
// (SimulationModel::has_exact_jacobian; docs/design.md, "Sensitivities"): dF/dx and
// dF/d(der_x) apart, so that the sensitivity rows F_x s_k + F_x' s_k' come without the
// rounding a difference quotient of the rows carries over its step.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "hdae/model.hpp"

namespace hdae::detail {

/// One add() of a model's jacobian().
struct CollectedEntry {
  std::size_t row = 0;
  std::size_t col = 0;
  double value = 0.0;
};

class ModelLinearisation {
 public:
  /// dF/dx and dF/d(der_x) of the model at (t, x, der_x): its jacobian() at cj = 0 and at a
  /// large cj.
  void take(SimulationModel& model, double t, std::span<const double> x,
            std::span<const double> der_x);
  /// r = dF/dx s + dF/d(der_x) der_s, at the point of the last take().
  void apply(std::span<const double> s, std::span<const double> der_s, std::span<double> r) const;

 private:
  /// at_zero_ and weighted_ made alike: each position of either once, in (row, col) order.
  void merge_positions();

  struct Entry {
    std::size_t row = 0;
    std::size_t col = 0;
    double d_x = 0.0;    ///< dF_row/dx_col
    double d_der = 0.0;  ///< dF_row/d(der_x)_col
  };
  std::vector<Entry> entries_;
  std::vector<CollectedEntry> at_zero_;   ///< the adds of jacobian() at cj = 0
  std::vector<CollectedEntry> weighted_;  ///< and at the large cj
};

}  // namespace hdae::detail
