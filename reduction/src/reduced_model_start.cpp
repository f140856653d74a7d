// The consistent start of an index-reduced model (hdae/index_reduction.hpp, step 5): the slots
// nearest to the start values that satisfy every equation and its derivatives, each start value
// as firm as the model says, and a message naming the row and the slot when none is found.
#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "consistent_start.hpp"
#include "equation_derivatives.hpp"
#include "hdae/errors.hpp"
#include "reduced_model_state.hpp"
#include "system_jacobian.hpp"

namespace hdae {

using reduction::Firmness;

reduction::StartProblem IndexReducedModel::Impl::start_problem() const {
  const ModelStructure& s = original->structure();
  reduction::StartProblem p;
  p.num_equations = layout.num_equation_rows;
  p.equations = [this](std::span<const double> y, std::span<double> r) {
    reduction::equation_derivatives(*original, layout, kReductionAnalysisTime, y, r);
  };
  // Start values of differentiated unknowns (and given start values of derivatives) are held;
  // those of algebraic unknowns (d_j = 0) are guesses, as in Modelica. An unknown that several
  // slots share (an alias) is as firm as the firmest of them.
  p.firmness.assign(layout.num_slots, Firmness::kGuess);
  for (std::size_t l = 0; l < layout.num_logical(); ++l) {
    const auto [j, k] = layout.logical(l);
    const VariableInfo& v = s.variables.declared(j);
    const bool given = (k == 0 && layout.d[j] >= 1) || (k == 1 && v.der_start.has_value());
    const Firmness firmness =
        k == 0 && v.fixed ? Firmness::kFixed : (given ? Firmness::kGiven : Firmness::kGuess);
    Firmness& f = p.firmness[layout.unknown_of[l]];
    f = std::max(f, firmness);
  }
  for (std::size_t u = 0; u < layout.num_slots; ++u) {
    const VariableInfo info = structure.variables.info(u);
    // A slot's own size: a derivative slot can be orders of magnitude from the variable's
    // nominal value (accelerations of 1e4 rad/s^2 beside angles of 1 rad), and both the
    // weights and the convergence test must see each slot at its size.
    p.guess.push_back(info.start);
    p.scale.push_back(std::max(info.nominal, std::abs(info.start)));
    // The feasible region bounds the unknowns themselves, not their derivatives
    // (reduced_structure gives the slots of the unknowns themselves their bounds).
    constexpr double kInf = std::numeric_limits<double>::infinity();
    p.lower.push_back(info.min.value_or(-kInf));
    p.upper.push_back(info.max.value_or(kInf));
  }
  p.jacobian = [this](std::span<const double> y, Eigen::SparseMatrix<double>& a) {
    equations_jacobian(y, a);
  };
  p.approximate = !original->propagates_jets();
  return p;
}

void IndexReducedModel::Impl::find_consistent_start() {
  const reduction::StartProblem p = start_problem();
  const reduction::StartResult r = reduction::consistent_start(p);
  if (!r.converged) throw_no_consistent_start(r);
  start_notes.clear();
  for (std::size_t k = 0; k < r.y.size(); ++k) {
    const double given_value = structure.variables.start(k);
    const bool given = p.firmness[k] != Firmness::kGuess;
    if (given && std::abs(r.y[k] - given_value) > 1e-9 * p.scale[k]) {
      start_notes.push_back(fmt::format(
          "start value of {} moved from {:.12g} to {:.12g} to satisfy the equations and their "
          "derivatives",
          structure.variables.name(k), given_value, r.y[k]));
    }
    structure.variables.set_start(k, r.y[k]);
  }
  // The slots' sizes at the consistent start are their nominal values from now on: IDA's
  // absolute tolerances and the state selection's scaling see derivative slots at their size.
  for (std::size_t k = 0; k < r.y.size(); ++k) {
    structure.variables.declared(k).nominal = std::max(p.scale[k], std::abs(r.y[k]));
  }
}

void IndexReducedModel::Impl::equations_jacobian(std::span<const double> slots,
                                                 Eigen::SparseMatrix<double>& a) const {
  std::vector<Eigen::Triplet<double>> entries;
  const auto add = [&entries](std::size_t row, std::size_t slot, double v) {
    entries.emplace_back(static_cast<Eigen::Index>(row), static_cast<Eigen::Index>(slot), v);
  };
  if (exact) {
    exact_jacobian.evaluate(*original, kReductionAnalysisTime, slots, add);
  } else {
    reduction::difference_jacobian(*original, layout, mode.signature, kReductionAnalysisTime, slots,
                                   structure.variables.nominals(), add);
  }
  a.resize(static_cast<Eigen::Index>(layout.num_equation_rows),
           static_cast<Eigen::Index>(slots.size()));
  a.setFromTriplets(entries.begin(), entries.end());
}

void IndexReducedModel::Impl::throw_no_consistent_start(const reduction::StartResult& r) const {
  const std::string row = structure.equations.name(r.worst_row);
  if (!std::isfinite(r.residual_norm)) {
    // No step can mend a row without a value: say where it has none, not how far it is off.
    throw ModelError(fmt::format(
        "model '{}': no consistent start values: equation '{}' has no finite value at t = {} "
        "({:g}) at the start values after {} Gauss-Newton steps; the equation, or the "
        "derivative the reduction takes of it, is singular there (a square root or a division "
        "by zero at t = {}?)",
        original->structure().name, row, kReductionAnalysisTime, r.residual_norm, r.iterations,
        kReductionAnalysisTime));
  }
  throw ModelError(fmt::format(
      "model '{}': no consistent start values found near the given ones: after {} Gauss-Newton "
      "steps equation '{}' is off by {:g} ({:g} times its round-off of {:g}), and the last step "
      "moved {} by {:g} of its size",
      original->structure().name, r.iterations, row, r.residual_norm, r.residual_norm / r.round_off,
      r.round_off, structure.variables.name(r.unsettled_slot), r.step));
}

}  // namespace hdae
