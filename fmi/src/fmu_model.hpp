// The adapter from an FMU instance to hdae's model contract (hdae/fmi.hpp says what maps onto
// what; docs/design.md, "FMI Model Exchange", how it meets the simulation loop). fmu_model.cpp
// declares the structure and evaluates; fmu_events.cpp starts a run and handles events;
// fmu_dae.cpp adds the algebraic variables and residuals of an FMU in the DAE mode of
// fmi-ls-dae (dae_manifest.hpp).
#pragma once

#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "archive.hpp"
#include "fmu_instance.hpp"
#include "hdae/fmi.hpp"
#include "model_description.hpp"
#include "shared_library.hpp"

namespace hdae::fmi::detail {

/// A nominal the engine can scale with (> 0): the FMU's, else 1.
[[nodiscard]] inline double usable_nominal(const std::optional<double>& nominal) {
  return nominal && std::isfinite(*nominal) && *nominal > 0.0 ? *nominal : 1.0;
}

class FmuModel final : public Fmu {
 public:
  FmuModel(UnpackDirectory directory, std::unique_ptr<SharedLibrary> library,
           ModelDescription description, const LoadOptions& options);

  [[nodiscard]] const FmuInfo& info() const override { return description_.info; }
  [[nodiscard]] std::vector<std::string> messages() const override { return log_.messages(); }

  void evaluate(Evaluation& e) override;
  void on_event(EventContext& event) override;
  /// An FMU that needs CompletedIntegratorStep hears of every step (fmu_events.cpp).
  [[nodiscard]] bool wants_completed_steps() const override {
    return description_.info.needs_completed_integrator_step;
  }
  [[nodiscard]] bool completed_step(double t, std::span<const double> x,
                                    std::span<const double> der_x) override;
  void reset() override;
  /// With the FMU's directional derivatives (fmu_jacobian.cpp).
  [[nodiscard]] bool provides_jacobian() const override { return !partials_.knowns.empty(); }
  void jacobian(double t, double cj, std::span<const double> x, std::span<const double> der_x,
                JacobianEntries& entries) override;

 protected:
  void parameters_changed() override;

 private:
  /// Values exchanged with the FMU, kept between calls.
  struct Buffers {
    std::vector<double> x;           ///< the states as the FMU gives them
    std::vector<double> der_x;       ///< the FMU's derivatives
    std::vector<double> indicators;  ///< the last event indicators asked for
    std::vector<double> outputs;
    std::vector<double> settable;  ///< parameters, then inputs, as the user set them
  };
  /// The DAE mode of fmi-ls-dae: the algebraic variables, unknowns after the states, and the
  /// residuals, constraint rows after the states' rows. Empty for an ODE FMU.
  struct DaeParts {
    std::vector<Var> unknowns;
    std::vector<Eq> rows;
    std::vector<double> a;  ///< the algebraic variables as set in the FMU
    std::vector<double> r;  ///< the FMU's residuals
  };
  /// The FMU's directional derivatives as the rows' Jacobian: the unknowns of the calls are the
  /// state derivatives, then the residuals (DAE mode); the knowns the states, then the
  /// algebraic variables, one column per call. Empty when they are not used.
  struct Partials {
    std::vector<std::uint32_t> unknowns;
    std::vector<std::uint32_t> knowns;
    std::vector<double> column;  ///< the last call's sensitivities
  };
  /// Where the run stands with the FMU.
  struct RunState {
    bool started = false;  ///< initialized for this run (reset() clears it)
    /// What initialization reported, for the first pass of the event iteration at t0.
    std::optional<DiscreteUpdate> initial;
    /// CompletedIntegratorStep asked to terminate: the step event that follows stops the run.
    bool terminate_after_step = false;
  };

  void declare_structure();
  /// Initializes the FMU at the description's start time and takes its states as start values.
  void take_start_values();
  /// Reset, parameters and inputs, Initialization Mode at t0, the discrete-state updates, and
  /// Continuous-Time Mode.
  void start_run(double t0);
  /// The discrete-state updates at one instant until the FMU asks for no more; what they said,
  /// accumulated.
  [[nodiscard]] DiscreteUpdate settle(double t);
  /// Hands the FMU t and the unknowns x (states, then algebraic variables).
  void set_point(double t, std::span<const double> x);
  /// The FMU's derivatives at (t, x) into buffers_.der_x; RecoverableError naming one that is
  /// not finite.
  void derivatives(double t, std::span<const double> x);
  void apply(const DiscreteUpdate& update, EventContext& event, const char* function);
  // DAE mode (fmu_dae.cpp); each does nothing for an ODE FMU.
  void declare_dae();
  /// The algebraic variables' values as the FMU holds them, as start values.
  void take_algebraic_starts();
  /// Hands the FMU the algebraic variables' values a, in the manifest's order.
  void set_algebraic(std::span<const double> a);
  /// The same with the values of the event's state.
  void set_algebraic(const EventContext& event);
  /// The residuals at the values set last, into their rows.
  void residuals(Evaluation& e);
  /// The algebraic variables' values as the FMU holds them, as the event's x^-.
  void take_algebraic(EventContext& event);
  /// The value references of the directional derivatives when the FMU provides them and
  /// options ask for them (fmu_jacobian.cpp).
  void declare_partials(const LoadOptions& options);
  /// The name of the variable whose value reference is vr, for messages.
  [[nodiscard]] std::string name_of(std::uint32_t vr) const;

  // Member order is destruction order in reverse: the instance goes before the library that
  // holds its code, which goes before the directory its file lies in.
  UnpackDirectory directory_;
  std::unique_ptr<SharedLibrary> library_;
  ModelDescription description_;
  FmuLog log_;
  std::unique_ptr<FmuInstance> instance_;
  std::vector<ScalarVariable> settable_;  ///< parameters, then inputs
  std::vector<ScalarVariable> outputs_;   ///< the outputs that are no states
  std::vector<Var> states_;
  std::vector<Eq> rows_;
  std::vector<Crossing> crossings_;
  std::vector<Out> output_handles_;
  std::vector<Param> parameters_;
  TimeEvent next_event_;
  Buffers buffers_;
  DaeParts dae_;
  Partials partials_;
  RunState run_;
};

}  // namespace hdae::fmi::detail
