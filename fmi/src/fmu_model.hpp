// The adapter from an FMU instance to hdae's model contract (hdae/fmi.hpp says what maps onto
// what; docs/design.md, "FMI Model Exchange", how it meets the simulation loop). fmu_model.cpp
// declares the structure and evaluates; fmu_events.cpp starts a run and handles events.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "archive.hpp"
#include "fmu_instance.hpp"
#include "hdae/fmi.hpp"
#include "model_description.hpp"
#include "shared_library.hpp"

namespace hdae::fmi::detail {

class FmuModel final : public Fmu {
 public:
  FmuModel(UnpackDirectory directory, std::unique_ptr<SharedLibrary> library,
           ModelDescription description, const LoadOptions& options);

  [[nodiscard]] const FmuInfo& info() const override { return description_.info; }
  [[nodiscard]] std::vector<std::string> messages() const override { return log_.messages(); }

  void evaluate(Evaluation& e) override;
  void on_event(EventContext& event) override;
  void reset() override;

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
  /// Where the run stands with the FMU.
  struct RunState {
    bool started = false;  ///< initialized for this run (reset() clears it)
    /// What initialization reported, for the first pass of the event iteration at t0.
    std::optional<DiscreteUpdate> initial;
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
  /// The FMU's derivatives at (t, x) into buffers_.der_x; RecoverableError naming one that is
  /// not finite.
  void derivatives(double t, std::span<const double> x);
  void apply(const DiscreteUpdate& update, EventContext& event, const char* function);

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
  RunState run_;
};

}  // namespace hdae::fmi::detail
