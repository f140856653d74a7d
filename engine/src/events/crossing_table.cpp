#include "events/crossing_table.hpp"

#include <algorithm>

namespace hdae::detail {

CrossingTable::CrossingTable(const ModelStructure& structure, double hysteresis) {
  const std::size_t n = structure.crossings.size();
  direction_.reserve(n);
  epsilon_.reserve(n);
  for (const CrossingInfo& c : structure.crossings) {
    direction_.push_back(c.direction);
    epsilon_.push_back(hysteresis * c.nominal);
  }
  value_.assign(n, 0);
  previous_.assign(n, 0);
  uses_.assign(n, 0);
  z_.assign(n, 0.0);
}

bool CrossingTable::update(std::size_t k, double c, EvaluationPhase phase) {
  if (phase != EvaluationPhase::kContinuous) {
    value_[k] = c > 0.0 ? 1 : 0;
    if (initial_pass_) previous_[k] = value_[k];
  }
  if (uses_[k] != 255) ++uses_[k];
  const double eps = epsilon_[k];
  switch (direction_[k]) {
    case CrossingDirection::kBoth:
      z_[k] = value_[k] != 0 ? c + eps : c - eps;
      break;
    case CrossingDirection::kRising:
      z_[k] = c - eps;
      break;
    case CrossingDirection::kFalling:
      z_[k] = c + eps;
      break;
  }
  return value_[k] != 0;
}

void CrossingTable::begin_pass() { previous_ = value_; }

void CrossingTable::note_root(std::size_t k, int direction) {
  // A restricted crossing may have crossed back unobserved (IDA ignores that direction);
  // put the Boolean on the side it must have been on before the reported crossing.
  if (direction_[k] == CrossingDirection::kRising && direction > 0) value_[k] = 0;
  if (direction_[k] == CrossingDirection::kFalling && direction < 0) value_[k] = 1;
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
