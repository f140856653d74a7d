#include "events/crossing_table.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace hdae::detail {

CrossingTable::CrossingTable(const ModelStructure& structure, double guard) {
  const std::size_t n = structure.crossings.size();
  direction_.reserve(n);
  guard_.reserve(n);
  nominal_.reserve(n);
  for (const CrossingInfo& c : structure.crossings) {
    direction_.push_back(c.direction);
    guard_.push_back(guard * c.nominal);
    nominal_.push_back(c.nominal);
  }
  value_.assign(n, 0);
  previous_.assign(n, 0);
  located_.assign(n, 0);
  uses_.assign(n, 0);
  c_.assign(n, 0.0);
  offset_.assign(n, 0.0);
  z_.assign(n, 0.0);
}

bool CrossingTable::update(std::size_t k, double c, EvaluationPhase phase) {
  if (phase != EvaluationPhase::kContinuous) {
    // A crossing IDA located keeps its new side unless c is beyond the guard on the old one.
    const double threshold = located_[k] > 0 ? -guard_[k] : located_[k] < 0 ? guard_[k] : 0.0;
    value_[k] = c > threshold ? 1 : 0;
    if (initial_pass_) previous_[k] = value_[k];
  }
  if (uses_[k] != 255) ++uses_[k];
  c_[k] = c;
  z_[k] = c + offset_[k];
  return value_[k] != 0;
}

void CrossingTable::begin_pass() { previous_ = value_; }

void CrossingTable::note_root(std::size_t k, int direction) {
  located_[k] = static_cast<signed char>(direction > 0 ? 1 : -1);
  // A restricted crossing may have crossed back unobserved (IDA ignores that direction);
  // put the Boolean on the side it must have been on before the reported crossing.
  if (direction_[k] == CrossingDirection::kRising && direction > 0) value_[k] = 0;
  if (direction_[k] == CrossingDirection::kFalling && direction < 0) value_[k] = 1;
}

void CrossingTable::note_roots_ahead(std::span<const int> reported) {
  for (std::size_t k = 0; k < c_.size(); ++k) {
    // z, not c: a crossing held off zero by its offset (a ball resting on the floor) is not
    // crossing, whatever round-off c shows.
    if (reported[k] != 0 || (z_[k] > 0.0) == (value_[k] != 0)) continue;
    const int direction = z_[k] > 0.0 ? 1 : -1;
    if (direction > 0 && direction_[k] == CrossingDirection::kFalling) continue;
    if (direction < 0 && direction_[k] == CrossingDirection::kRising) continue;
    note_root(k, direction);
  }
}

void CrossingTable::forget_roots() { std::fill(located_.begin(), located_.end(), 0); }

void CrossingTable::align_with_booleans() {
  constexpr double u = std::numeric_limits<double>::epsilon();
  for (std::size_t k = 0; k < c_.size(); ++k) {
    const double c = c_[k];
    const double side = value_[k] != 0 ? 1.0 : -1.0;
    offset_[k] = 0.0;
    // Only a value within the guard can disagree with its Boolean after an event; anything
    // farther (a crossing value that depends on der_x, which IDA scales at its first call)
    // is left to IDA as it is.
    if (side * c > 0.0 || std::abs(c) > guard_[k]) {
      z_[k] = c;
      continue;
    }
    // The least shift that leaves z strictly on the Boolean's side, with room for the
    // rounding of c + o: a few ulps of c or of the crossing's nominal.
    offset_[k] = side * (std::abs(c) + 4.0 * u * std::max(std::abs(c), nominal_[k]));
    z_[k] = c + offset_[k];
  }
}

void CrossingTable::begin_initial_pass() {
  previous_ = value_;
  initial_pass_ = true;
}

void CrossingTable::accept_current() {
  previous_ = value_;
  initial_pass_ = false;
}

bool CrossingTable::any_flipped() const { return value_ != previous_; }

void CrossingTable::clear_uses() { std::fill(uses_.begin(), uses_.end(), 0); }

}  // namespace hdae::detail
