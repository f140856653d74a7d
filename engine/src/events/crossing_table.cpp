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
  set_pre_crossing_side(k, direction);
}

void CrossingTable::set_pre_crossing_side(std::size_t k, int direction) {
  // A restricted crossing may have crossed back unobserved (IDA ignores that direction);
  // put the Boolean on the side it must have been on before the reported crossing.
  if (direction_[k] == CrossingDirection::kRising && direction > 0) value_[k] = 0;
  if (direction_[k] == CrossingDirection::kFalling && direction < 0) value_[k] = 1;
}

bool CrossingTable::watched(std::size_t k, int direction) const {
  if (direction > 0) return direction_[k] != CrossingDirection::kFalling;
  return direction_[k] != CrossingDirection::kRising;
}

std::vector<int> CrossingTable::note_reported(std::span<const int> reported) {
  std::vector<int> crossed(reported.begin(), reported.end());
  for (std::size_t k = 0; k < crossed.size(); ++k) {
    if (crossed[k] == 0) continue;
    if (z_[k] != 0.0) {
      note_root(k, crossed[k]);
      continue;
    }
    set_pre_crossing_side(k, crossed[k]);
    crossed[k] = 0;
  }
  return crossed;
}

void CrossingTable::note_roots_ahead(std::span<const int> reported) {
  for (std::size_t k = 0; k < c_.size(); ++k) {
    // z, not c: a crossing held off zero by its offset (a ball resting on the floor) is not
    // crossing, whatever round-off c shows.
    if (reported[k] != 0 || (z_[k] > 0.0) == (value_[k] != 0)) continue;
    const int direction = z_[k] > 0.0 ? 1 : -1;
    if (watched(k, direction)) note_root(k, direction);
  }
}

std::vector<char> CrossingTable::sides() const {
  std::vector<char> side(z_.size());
  for (std::size_t k = 0; k < z_.size(); ++k) side[k] = z_[k] > 0.0 ? 1 : 0;
  return side;
}

std::vector<int> CrossingTable::sides_left(std::span<const char> before) const {
  std::vector<int> left(z_.size(), 0);
  for (std::size_t k = 0; k < z_.size(); ++k) {
    const bool now = z_[k] > 0.0;
    if (now == (before[k] != 0)) continue;
    const int direction = now ? 1 : -1;
    if (watched(k, direction)) left[k] = direction;
  }
  return left;
}

bool CrossingTable::any_side_left(std::span<const char> before) const {
  const std::vector<int> left = sides_left(before);
  return std::any_of(left.begin(), left.end(), [](int d) { return d != 0; });
}

bool CrossingTable::any_at_zero(std::span<const int> reported) const {
  for (std::size_t k = 0; k < z_.size(); ++k) {
    if (reported[k] != 0 && z_[k] == 0.0) return true;
  }
  return false;
}

void CrossingTable::forget_roots() { std::fill(located_.begin(), located_.end(), 0); }

void CrossingTable::align_with_booleans() {
  constexpr double kUnitRoundOff = std::numeric_limits<double>::epsilon();
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
    offset_[k] = side * (std::abs(c) + 4.0 * kUnitRoundOff * std::max(std::abs(c), nominal_[k]));
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
