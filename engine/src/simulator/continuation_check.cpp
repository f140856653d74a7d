#include "simulator/continuation_check.hpp"

#include <algorithm>

namespace hdae::detail {

ContinuationCheck::ContinuationCheck(ModelCalls& model, const CrossingTable& crossings)
    : model_(model),
      crossings_(crossings),
      r_before_(model.structure().num_unknowns()),
      z_before_(crossings.size()),
      r_after_(model.structure().num_unknowns()),
      z_after_(crossings.size()) {}

void ContinuationCheck::record(double t, std::span<const double> x, std::span<const double> der_x) {
  recorded_ = evaluate(t, x, der_x, r_before_, z_before_);
}

bool ContinuationCheck::unchanged(double t, std::span<const double> x,
                                  std::span<const double> der_x) {
  if (!recorded_ || !evaluate(t, x, der_x, r_after_, z_after_)) return false;
  // ==, not a byte comparison: a NaN (equal to nothing) asks for a restart, and the sign of
  // a zero means nothing to IDA.
  return r_after_ == r_before_ && z_after_ == z_before_;
}

bool ContinuationCheck::evaluate(double t, std::span<const double> x, std::span<const double> der_x,
                                 std::vector<double>& r, std::vector<double>& z) {
  PhaseScope scope(model_, ModelPhase::kIntegration);
  if (!model_.evaluate_recoverable(t, x, der_x, r)) return false;
  const auto values = crossings_.z();
  std::copy(values.begin(), values.end(), z.begin());
  return true;
}

}  // namespace hdae::detail
