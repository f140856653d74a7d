// The crossing Booleans of a run and the values handed to IDA's root finder
// (docs/design.md, "The event loop"). Owned by the simulator, written through the helpers of
// hdae::Evaluation (positive / negative / change / edge).
//
// Between events a Boolean b_k is frozen and IDA sees z_k = c_k shifted by the hysteresis
// eps_k = hysteresis * nominal_k towards the current side: z = c + eps when b is true,
// z = c - eps when b is false. The root z = 0 therefore lies just past c = 0, so when IDA
// stops there the test c > 0 has certainly flipped, and after the event the new z has the
// new sign with magnitude about 2 eps: no crossing is left sitting on zero (FMI rule).
// Direction-restricted crossings use a fixed shift: kRising sees z = c - eps (root at
// c = +eps), kFalling z = c + eps; IDA ignores the other direction, and when IDA reports
// such a root the Boolean is first set to the pre-crossing side so the flip is seen even if
// the ignored crossing back was never observed.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "hdae/model.hpp"

namespace hdae::detail {

class CrossingTable {
 public:
  CrossingTable(const ModelStructure& structure, double hysteresis);

  [[nodiscard]] std::size_t size() const { return value_.size(); }

  /// The helper call for crossing k with condition value c in the given phase; returns b_k.
  bool update(std::size_t k, double c, EvaluationPhase phase);

  /// Marks the start of an event-iteration pass: the current Booleans become "previous".
  void begin_pass();
  /// IDA reported a root of crossing k with this sign (+1 rising z, -1 falling z).
  void note_root(std::size_t k, int direction);
  /// Starts the first pass at t0, where there is no "before": until accept_current(), each
  /// crossing's previous Boolean follows its current one, so change() and edge() report no
  /// change at t0 for a condition that simply starts true (as rose() does not).
  void begin_initial_pass();
  /// Forgets flips of this pass (ends the first pass at t0).
  void accept_current();

  [[nodiscard]] bool value(std::size_t k) const { return value_[k] != 0; }
  [[nodiscard]] bool previous(std::size_t k) const { return previous_[k] != 0; }
  [[nodiscard]] bool flipped(std::size_t k) const { return value_[k] != previous_[k]; }
  [[nodiscard]] bool any_flipped() const;
  /// How often each crossing's helper was called since clear_uses() (saturates at 255).
  [[nodiscard]] unsigned uses(std::size_t k) const { return uses_[k]; }
  void clear_uses();

  /// z values for IDA, as recorded by the last evaluation.
  [[nodiscard]] std::span<const double> z() const { return z_; }

 private:
  std::vector<CrossingDirection> direction_;
  std::vector<double> epsilon_;
  std::vector<char> value_;
  std::vector<char> previous_;
  std::vector<unsigned char> uses_;
  std::vector<double> z_;
  bool initial_pass_ = false;
};

}  // namespace hdae::detail
