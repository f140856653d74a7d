// fmi3GetFloat64 and fmi3SetFloat64 of an exported FMU's instance (fmu_instance.hpp): values
// by value reference (variable_layout.hpp). Before the run starts the unknowns have their
// start values; afterwards the Simulator's state at the time reached, right limits after an
// event there. The outputs w are evaluated from that state when asked for.
#include <stdexcept>

#include <fmt/format.h>

#include "fmu_instance.hpp"

namespace hdae::fmu_export {

LayoutEntry FmuInstance::entry(fmi3ValueReference vr) const {
  const std::optional<LayoutEntry> found = layout_.find(vr);
  if (!found) {
    throw std::out_of_range(fmt::format(
        "no variable has the value reference {} (model '{}' has the references 0 to {})", vr,
        structure().name, layout_.size() - 1));
  }
  return *found;
}

const std::vector<double>& FmuInstance::outputs() {
  if (outputs_current_) return outputs_;
  const ModelStructure& s = structure();
  outputs_.assign(s.outputs.size(), 0.0);
  if (!outputs_.empty()) {
    std::vector<double> x(s.variables.starts().begin(), s.variables.starts().end());
    std::vector<double> der_x(x.size(), 0.0);
    double t = start_s_;
    if (simulator_) {
      x.assign(simulator_->state().begin(), simulator_->state().end());
      der_x.assign(simulator_->derivatives().begin(), simulator_->derivatives().end());
      t = simulator_->time();
    } else {
      for (std::size_t j = 0; j < x.size(); ++j) {
        der_x[j] = s.variables.declared(j).der_start.value_or(0.0);
      }
    }
    std::vector<double> residuals(s.equations.size(), 0.0);
    // No crossing table: each crossing helper answers from its value at this point.
    Evaluation e(t, x, der_x, residuals, outputs_, nullptr, EvaluationPhase::kContinuous,
                 CrossingValues::kUnused);
    model_->evaluate(e);
  }
  outputs_current_ = true;
  return outputs_;
}

double FmuInstance::value(const LayoutEntry& e) {
  const ModelStructure& s = structure();
  switch (e.quantity) {
    case Quantity::kTime:
      return simulator_ ? simulator_->time() : start_s_;
    case Quantity::kState:
      return simulator_ ? simulator_->state()[e.index] : s.variables.start(e.index);
    case Quantity::kDerivative:
      return simulator_ ? simulator_->derivatives()[e.index]
                        : s.variables.declared(e.index).der_start.value_or(0.0);
    case Quantity::kOutput:
      return outputs()[e.index];
    case Quantity::kParameter:
      return s.parameters[e.index].value;
  }
  return 0.0;
}

void FmuInstance::get_float64(std::span<const fmi3ValueReference> vrs,
                              std::span<fmi3Float64> values) {
  if (vrs.size() != values.size()) {
    throw std::invalid_argument(fmt::format(
        "fmi3GetFloat64 with {} value references and {} values: every variable is a scalar",
        vrs.size(), values.size()));
  }
  for (std::size_t k = 0; k < vrs.size(); ++k) values[k] = value(entry(vrs[k]));
}

void FmuInstance::set_float64(std::span<const fmi3ValueReference> vrs,
                              std::span<const fmi3Float64> values) {
  if (vrs.size() != values.size()) {
    throw std::invalid_argument(fmt::format(
        "fmi3SetFloat64 with {} value references and {} values: every variable is a scalar",
        vrs.size(), values.size()));
  }
  // Check every reference before changing anything, so a refused call changes nothing.
  for (const fmi3ValueReference vr : vrs) {
    const LayoutEntry e = entry(vr);
    if (e.quantity != Quantity::kParameter) {
      throw std::invalid_argument(
          fmt::format("'{}' (value reference {}) cannot be set: only the parameters can (causality "
                      "parameter)",
                      variable_name(structure(), e), vr));
    }
    if (structure().parameters[e.index].integer) {
      throw std::invalid_argument(fmt::format(
          "'{}' (value reference {}) is fixed at export (a count that may change the model's "
          "size): export again with --set {}=<value>",
          variable_name(structure(), e), vr, variable_name(structure(), e)));
    }
  }
  require(phase_ == Phase::kInstantiated || phase_ == Phase::kInitialization,
          "fmi3SetFloat64 of a parameter (variability fixed: before fmi3ExitInitializationMode)");
  for (std::size_t k = 0; k < vrs.size(); ++k) {
    model_->set_parameter(structure().parameters[entry(vrs[k]).index].name, values[k]);
  }
  outputs_current_ = false;
}

}  // namespace hdae::fmu_export
