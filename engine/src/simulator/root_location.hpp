// Where a step's root lies and which crossings cross there (docs/design.md, "The event loop"):
// IDA's report refined on its interpolating polynomial. A crossing IDA reports that is exactly
// zero at the root moves the root back to the first instant a Boolean flips; crossings that
// cross within IDA's time resolution after the root count as crossing at it.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "events/crossing_table.hpp"
#include "model/model_calls.hpp"
#include "sundials/integrator.hpp"

namespace hdae::detail {

class RootLocation {
 public:
  RootLocation(ModelCalls& model, CrossingTable& crossings, std::size_t unknowns)
      : model_(model), crossings_(crossings), probe_(3 * unknowns) {}

  /// The model has this many unknowns from now on.
  void resize(std::size_t unknowns) { probe_.assign(3 * unknowns, 0.0); }
  /// After kRoot from a step that began at t_lo: moves the root back to the first instant at
  /// which a crossing's Boolean flips, when IDA reported one that is exactly zero.
  void locate_first_flip(sundials::Integrator& ida, double t_lo);
  /// Tells the crossing table which crossings IDA located at t (the state there: x, der_x), and
  /// which cross within IDA's time resolution after t (simultaneous events).
  void note_roots(const sundials::Integrator& ida, double t, std::span<const double> x,
                  std::span<const double> der_x);
  /// IDA's root time resolution at t (ttol in IDARootfind).
  [[nodiscard]] static double tolerance(const sundials::Integrator& ida, double t);

 private:
  [[nodiscard]] std::span<double> x() { return std::span(probe_).first(probe_.size() / 3); }
  [[nodiscard]] std::span<double> der_x() {
    return std::span(probe_).subspan(probe_.size() / 3, probe_.size() / 3);
  }
  [[nodiscard]] std::span<double> r() {
    return std::span(probe_).subspan(2 * probe_.size() / 3, probe_.size() / 3);
  }

  ModelCalls& model_;
  CrossingTable& crossings_;
  /// x, der_x and r of the probes, which run between output rows (allocation-free).
  std::vector<double> probe_;
};

}  // namespace hdae::detail
