// FmuModel's Jacobian from the FMU's directional derivatives (fmu_model.hpp). The rows are
// der(x_i) - f_i = 0 and, in the DAE mode of fmi-ls-dae, 0 = g_k; so the matrix
// dF/dx + cj dF/d(der x) has -df_i/dv_j in a state's row, dg_k/dv_j in a residual's row and
// cj on the states' diagonal, v being the states and then the algebraic variables. One call
// per column gives a column exactly, where a difference quotient of a stiff FMU's derivatives
// carries an error that the tolerance of a small component cannot absorb.
#include <cmath>

#include <fmt/format.h>

#include "fmu_model.hpp"
#include "hdae/errors.hpp"

namespace hdae::fmi::detail {

void FmuModel::declare_partials(const LoadOptions& options) {
  if (!options.directional_derivatives || !description_.info.provides_directional_derivatives) {
    return;
  }
  for (const ContinuousState& s : description_.states) {
    partials_.unknowns.push_back(s.derivative.value_reference);
    partials_.knowns.push_back(s.state.value_reference);
  }
  if (description_.dae) {
    for (const ScalarVariable& g : description_.dae->residuals) {
      partials_.unknowns.push_back(g.value_reference);
    }
    for (const ScalarVariable& a : description_.dae->algebraic) {
      partials_.knowns.push_back(a.value_reference);
    }
  }
  partials_.column.assign(partials_.unknowns.size(), 0.0);
}

std::string FmuModel::name_of(std::uint32_t vr) const {
  for (const ContinuousState& s : description_.states) {
    if (s.state.value_reference == vr) return s.state.name;
    if (s.derivative.value_reference == vr) return s.derivative.name;
  }
  if (description_.dae) {
    for (const ScalarVariable& v : description_.dae->algebraic) {
      if (v.value_reference == vr) return v.name;
    }
    for (const ScalarVariable& v : description_.dae->residuals) {
      if (v.value_reference == vr) return v.name;
    }
  }
  return fmt::format("valueReference {}", vr);
}

void FmuModel::jacobian(double t, double cj, std::span<const double> x,
                        std::span<const double> /*der_x*/, JacobianEntries& entries) {
  if (!run_.started) start_run(t);
  set_point(t, x);
  const std::size_t n = states_.size();
  const double seed = 1.0;
  for (std::size_t j = 0; j < partials_.knowns.size(); ++j) {
    instance_->directional_derivative(partials_.unknowns, std::span(&partials_.knowns[j], 1),
                                      std::span(&seed, 1), partials_.column);
    const Var column = j < n ? states_[j] : dae_.unknowns[j - n];
    for (std::size_t i = 0; i < partials_.unknowns.size(); ++i) {
      const double value = partials_.column[i];
      if (!std::isfinite(value)) {
        // Like a derivative that is not finite: a smaller step may keep the state out of it.
        throw RecoverableError(
            fmt::format("FMU '{}': {} returned d({})/d({}) = {} at t = {}", instance_->fmu_name(),
                        description_.version == FmiVersion::kFmi3 ? "fmi3GetDirectionalDerivative"
                                                                  : "fmi2GetDirectionalDerivative",
                        name_of(partials_.unknowns[i]), name_of(partials_.knowns[j]), value, t));
      }
      // Entries that are zero stay out, so a sparse pattern need not hold them.
      if (value == 0.0) continue;
      if (i < n) {
        entries.add(rows_[i], column, -value);
      } else {
        entries.add(dae_.rows[i - n], column, value);
      }
    }
  }
  for (std::size_t i = 0; i < n; ++i) entries.add(rows_[i], states_[i], cj);
}

}  // namespace hdae::fmi::detail
