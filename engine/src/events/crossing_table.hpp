// The crossing Booleans of a run and the values handed to IDA's root finder
// (docs/design.md, "The event loop"). Owned by the simulator, written through the helpers of
// hdae::Evaluation (positive / negative / change / edge).
//
// Between events a Boolean b_k is frozen and IDA sees the crossing value c_k itself, so IDA
// locates c_k = 0 to its own root tolerance (a bracket of about 100 u (|t| + |h|) in time).
// IDA reports the root at the end of that bracket, where c_k is on the new side or exactly
// zero; round-off (a der_x-dependent value, a jump solve that moves x by an ulp) may even
// leave it a hair on the old side. So the Boolean of a crossing IDA located is not read from
// the sign of c_k at the event: for the whole event iteration its threshold moves by the
// guard g_k = guard * nominal_k to the old side (b = c > -g_k after a rising root,
// b = c > g_k after a falling one), and only a jump that carries c_k farther back than the
// guard flips it back. Every other crossing follows c_k > 0 at events.
//
// At a restart IDA must neither report the same root again nor lose sight of the crossing:
// IDA deactivates a root function that is exactly zero at the initial point until it moves
// away from zero, and one that starts a hair on the wrong side would cross "again" at once.
// Both are avoided by an offset o_k, fixed at each restart from the value IDA sees there
// (align_with_booleans): 0 when c_k is strictly on its Boolean's side (the usual case),
// otherwise the least shift that puts z_k = c_k + o_k strictly on that side (a few ulps of
// c_k or of the nominal). IDA then sees z_k = c_k + o_k until the next restart; the next
// root of that crossing is off by o_k / rate, at round-off level. Crossings restricted to one
// direction are handed to IDA with that direction; when IDA reports such a root the Boolean
// is first set to the pre-crossing side, in case the way back went unseen.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "hdae/model.hpp"

namespace hdae::detail {

class CrossingTable {
 public:
  /// guard: SimulationOptions::crossing_hysteresis, relative to each crossing's nominal.
  CrossingTable(const ModelStructure& structure, double guard);

  [[nodiscard]] std::size_t size() const { return value_.size(); }

  /// The helper call for crossing k with condition value c in the given phase; returns b_k.
  bool update(std::size_t k, double c, EvaluationPhase phase);

  /// Marks the start of an event-iteration pass: the current Booleans become "previous".
  void begin_pass();
  /// IDA located a root of crossing k at this instant (+1 rising z, -1 falling z): the
  /// Boolean goes to the new side in the event iteration that follows (see the file comment).
  void note_root(std::size_t k, int direction);
  /// IDA reported these roots (+1 rising z, -1 falling z, 0 none) at the instant of the last
  /// evaluation. A crossing whose z is not exactly zero there is noted (note_root); one whose
  /// z is exactly zero has crossed by its Boolean's rule (z > 0) only if it left the positive
  /// side, which its value just after tells (note_roots_ahead): it is left out of the
  /// returned copy of `reported`, after a crossing restricted to the reported direction was
  /// put on its pre-crossing side.
  [[nodiscard]] std::vector<int> note_reported(std::span<const int> reported);
  /// After an evaluation just after the root (within IDA's time resolution): the crossings
  /// IDA did not report (reported[k] == 0) whose z there disagrees with their Boolean, in
  /// a direction they watch, count as located too.
  void note_roots_ahead(std::span<const int> reported);
  /// The event iteration is over: no crossing counts as located any more.
  void forget_roots();
  /// Fixes the offsets o_k from the values of the last evaluation, the one IDA makes at its
  /// restart point, and recomputes z (see the file comment).
  void align_with_booleans();
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

  /// z values for IDA (c + o), as recorded by the last evaluation.
  [[nodiscard]] std::span<const double> z() const { return z_; }
  /// The side of zero of each z in the last evaluation (1: z > 0, the Booleans' rule).
  [[nodiscard]] std::vector<char> sides() const;
  /// For each crossing, +1 (rising) or -1 (falling) when z of the last evaluation lies on the
  /// other side than in `before` (sides()) and IDA watches that direction; 0 otherwise.
  [[nodiscard]] std::vector<int> sides_left(std::span<const char> before) const;
  /// True when sides_left(before) is not all zero.
  [[nodiscard]] bool any_side_left(std::span<const char> before) const;
  /// True when one of the reported crossings (reported[k] != 0) has z exactly zero in the
  /// last evaluation.
  [[nodiscard]] bool any_at_zero(std::span<const int> reported) const;

 private:
  std::vector<CrossingDirection> direction_;
  std::vector<double> guard_;
  std::vector<double> nominal_;
  std::vector<char> value_;
  std::vector<char> previous_;
  /// Puts a crossing restricted to one direction on the side before a root in that direction.
  void set_pre_crossing_side(std::size_t k, int direction);
  /// True when IDA watches crossing k for roots in this direction (+1 rising, -1 falling).
  [[nodiscard]] bool watched(std::size_t k, int direction) const;

  std::vector<signed char> located_;
  std::vector<unsigned char> uses_;
  std::vector<double> c_;
  std::vector<double> offset_;
  std::vector<double> z_;
  bool initial_pass_ = false;
};

}  // namespace hdae::detail
