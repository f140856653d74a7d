// FmuModel in the DAE mode of fmi-ls-dae (fmu_model.hpp, dae_manifest.hpp): the FMU's
// algebraic variables a become algebraic unknowns of hdae, each after the states, and its
// residual variables g the constraint rows 0 = g(x, a, t). The FMU takes a by fmi3SetFloat64
// before it is asked for derivatives, residuals or indicators, so that its
// der(x) = f(x, a, t) rows, its residuals and its events all see the importer's a; hdae's
// consistent start and jump solves then find a where g = 0 (docs/design.md, "The jump solve").
#include <cmath>

#include <fmt/format.h>

#include "fmu_model.hpp"
#include "hdae/errors.hpp"

namespace hdae::fmi::detail {
void FmuModel::declare_dae() {
  if (!description_.dae) return;
  for (const ScalarVariable& a : description_.dae->algebraic) {
    dae_.unknowns.push_back(declare_variable({.name = a.name,
                                              .unit = a.unit,
                                              .start = a.start.value_or(0.0),
                                              .nominal = usable_nominal(a.nominal)}));
  }
  for (const ScalarVariable& g : description_.dae->residuals) {
    dae_.rows.push_back(
        declare_equation(fmt::format("0 = {} from the FMU", g.name), RowKind::kConstraint));
  }
  dae_.a.assign(dae_.unknowns.size(), 0.0);
  dae_.r.assign(dae_.rows.size(), 0.0);
}

void FmuModel::take_algebraic_starts() {
  if (dae_.unknowns.empty()) return;
  instance_->get_reals(description_.dae->algebraic, dae_.a);
  for (std::size_t k = 0; k < dae_.unknowns.size(); ++k) set_start(dae_.unknowns[k], dae_.a[k]);
}

void FmuModel::set_algebraic(std::span<const double> a) {
  if (dae_.unknowns.empty()) return;
  instance_->set_reals(description_.dae->algebraic, a);
}

void FmuModel::set_algebraic(const EventContext& event) {
  if (dae_.unknowns.empty()) return;
  for (std::size_t k = 0; k < dae_.unknowns.size(); ++k) dae_.a[k] = event.x(dae_.unknowns[k]);
  set_algebraic(dae_.a);
}

void FmuModel::residuals(Evaluation& e) {
  if (dae_.rows.empty()) return;
  instance_->get_reals(description_.dae->residuals, dae_.r);
  for (std::size_t k = 0; k < dae_.rows.size(); ++k) {
    if (!std::isfinite(dae_.r[k])) {
      // Like a derivative that is not finite: a smaller step may keep a out of trouble.
      throw RecoverableError(fmt::format(
          "FMU '{}': fmi3GetFloat64 returned the residual {} = {} "
          "at t = {}",
          instance_->fmu_name(), description_.dae->residuals[k].name, dae_.r[k], e.t()));
    }
    e.set(dae_.rows[k], dae_.r[k]);
  }
}

void FmuModel::take_algebraic(EventContext& event) {
  if (dae_.unknowns.empty()) return;
  instance_->get_reals(description_.dae->algebraic, dae_.a);
  for (std::size_t k = 0; k < dae_.unknowns.size(); ++k) event.set(dae_.unknowns[k], dae_.a[k]);
}

}  // namespace hdae::fmi::detail
