// ContinuationCheck: whether IDA may go on after a time event without a restart
// (docs/design.md, "Restarts").
//
// At a time event IDA stands exactly at the event instant (its stop time), with a history
// (the divided differences of its BDF formulas) that describes the solution up to there. A
// restart throws that history away and starts again at order 1 with a tiny step, which costs
// some 20 to 40 steps on a large model. When the event changed nothing IDA sees, the history
// describes the continuing solution as well as it did before, and IDA can simply go on.
//
// What IDA sees of the model at the left limit (t, x^-, der_x^-) is the residual vector and
// the crossing values handed to its root finder (CrossingTable::z, Booleans frozen). Both are
// recorded before the event iteration and evaluated again after it, at the same point, in
// the mode and with the Booleans the event left. Equal bit for bit, they say that the model
// IDA integrates is, at this point, the one it integrated before. The owner checks the rest
// (no row kind changed, no crossing flipped, no variable jumped); a change the comparison
// cannot see (a parameter multiplying a term that is zero at the event) changes at most the
// higher derivatives of the solution, which IDA's local error test sees as it would in a
// run without events.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "events/crossing_table.hpp"
#include "model/model_calls.hpp"

namespace hdae::detail {

class ContinuationCheck {
 public:
  ContinuationCheck(ModelCalls& model, const CrossingTable& crossings);

  /// Records the residuals and crossing values at the left limit, before the event iteration.
  void record(double t, std::span<const double> x, std::span<const double> der_x);
  /// After the event iteration: true when the model gives, at the same point, the recorded
  /// residuals and crossing values bit for bit.
  [[nodiscard]] bool unchanged(double t, std::span<const double> x, std::span<const double> der_x);

 private:
  /// F and z at (t, x, der_x) into r and z as IDA would get them; false when the model threw
  /// RecoverableError there.
  bool evaluate(double t, std::span<const double> x, std::span<const double> der_x,
                std::vector<double>& r, std::vector<double>& z);

  ModelCalls& model_;
  const CrossingTable& crossings_;
  bool recorded_ = false;
  std::vector<double> r_before_, z_before_, r_after_, z_after_;
};

}  // namespace hdae::detail
