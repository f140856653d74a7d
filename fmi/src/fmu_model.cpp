// FmuModel's structure and residuals (fmu_model.hpp): states as differential unknowns with the
// rows der(x) - f(x) = 0, event indicators as crossings, outputs, parameters and inputs.
#include "fmu_model.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "hdae/errors.hpp"
#include "settable_variables.hpp"

namespace hdae::fmi::detail {
namespace {

/// A state, a state derivative or an algebraic variable (DAE mode): a column of its own.
bool is_unknown_column(const ModelDescription& d, const std::string& name) {
  const bool algebraic =
      d.dae && std::any_of(d.dae->algebraic.begin(), d.dae->algebraic.end(),
                           [&](const ScalarVariable& a) { return a.name == name; });
  return algebraic || std::any_of(d.states.begin(), d.states.end(), [&](const ContinuousState& s) {
           return s.state.name == name || s.derivative.name == name;
         });
}

}  // namespace

FmuModel::FmuModel(UnpackDirectory directory, std::unique_ptr<SharedLibrary> library,
                   ModelDescription description, const LoadOptions& options)
    : Fmu(description.info.model_name),
      directory_(std::move(directory)),
      library_(std::move(library)),
      description_(std::move(description)) {
  const InstanceSettings settings =
      instance_settings(description_, directory_.path(), options.debug_logging, log_);
  instance_ = description_.version == FmiVersion::kFmi3
                  ? make_fmi3_instance(*library_, description_, settings)
                  : make_fmi2_instance(*library_, description_, settings);
  settable_ = settable_variables(description_);
  for (const ScalarVariable& o : description_.outputs) {
    // An output that is an unknown or a derivative has its column already.
    if (!is_unknown_column(description_, o.name)) outputs_.push_back(o);
  }
  declare_structure();
  declare_partials(options);
  take_start_values();
}

void FmuModel::declare_structure() {
  const std::size_t parameter_count = description_.parameters.size();
  for (std::size_t k = 0; k < settable_.size(); ++k) {
    parameters_.push_back(declare_parameter(parameter_info(settable_[k], k >= parameter_count)));
  }
  for (const ContinuousState& s : description_.states) {
    states_.push_back(declare_variable({.name = s.state.name,
                                        .unit = s.state.unit,
                                        .start = s.state.start.value_or(0.0),
                                        .nominal = usable_nominal(s.state.nominal),
                                        .der_name = s.derivative.name,
                                        .der_unit = s.derivative.unit}));
    rows_.push_back(declare_equation(
        fmt::format("der({}) = {} from the FMU", s.state.name, s.derivative.name)));
  }
  declare_dae();
  // FMI's events happen where an indicator changes between > 0 and <= 0, in either direction.
  for (const std::string& name : description_.event_indicators) {
    crossings_.push_back(declare_crossing(name + " > 0", CrossingDirection::kBoth));
  }
  for (const ScalarVariable& o : outputs_)
    output_handles_.push_back(declare_output(o.name, o.unit));
  next_event_ = declare_time_event("the FMU's next event time");
  buffers_.x.assign(states_.size(), 0.0);
  buffers_.der_x.assign(states_.size(), 0.0);
  buffers_.indicators.assign(crossings_.size(), 0.0);
  buffers_.outputs.assign(outputs_.size(), 0.0);
  buffers_.settable.assign(settable_.size(), 0.0);
}

void FmuModel::parameters_changed() { take_start_values(); }

void FmuModel::take_start_values() {
  start_run(description_.info.start_s);
  run_ = {};
  take_algebraic_starts();
  if (states_.empty()) return;
  instance_->get_states(buffers_.x);
  for (std::size_t i = 0; i < states_.size(); ++i) set_start(states_[i], buffers_.x[i]);
}

void FmuModel::set_point(double t, std::span<const double> x) {
  instance_->set_time(t);
  // The unknowns are the states in the FMU's order, then the algebraic variables (DAE mode).
  if (!states_.empty()) instance_->set_states(x.first(states_.size()));
  set_algebraic(x.subspan(states_.size()));
}

void FmuModel::derivatives(double t, std::span<const double> x) {
  set_point(t, x);
  if (states_.empty()) return;
  instance_->get_derivatives(buffers_.der_x);
  for (std::size_t i = 0; i < states_.size(); ++i) {
    if (std::isfinite(buffers_.der_x[i])) continue;
    throw RecoverableError(fmt::format(
        "FMU '{}': {} returned {} = {} for the state {} = {} at t = {}", instance_->fmu_name(),
        description_.version == FmiVersion::kFmi3 ? "fmi3GetContinuousStateDerivatives"
                                                  : "fmi2GetDerivatives",
        description_.states[i].derivative.name, buffers_.der_x[i],
        description_.states[i].state.name, x[i], t));
  }
}

void FmuModel::evaluate(Evaluation& e) {
  if (!run_.started) start_run(e.t());
  derivatives(e.t(), e.x());
  for (std::size_t i = 0; i < states_.size(); ++i) {
    e.set(rows_[i], e.der(states_[i]) - buffers_.der_x[i]);
  }
  residuals(e);
  if (!crossings_.empty()) {
    // Calls that use no crossing values get the last ones (Evaluation::wants_crossings).
    if (e.wants_crossings()) instance_->get_event_indicators(buffers_.indicators);
    for (std::size_t k = 0; k < crossings_.size(); ++k) {
      e.positive(crossings_[k], buffers_.indicators[k]);
    }
  }
  if (e.wants_outputs() && !outputs_.empty()) {
    instance_->get_reals(outputs_, buffers_.outputs);
    for (std::size_t k = 0; k < outputs_.size(); ++k)
      e.set(output_handles_[k], buffers_.outputs[k]);
  }
}

}  // namespace hdae::fmi::detail
