// An imported FMI 3.0 Co-Simulation FMU (hdae/fmi.hpp, Fmu::co_simulate): a Model that
// declares the FMU's parameters and inputs, so that they are set like any model's, and runs by
// stepping the FMU with fmi3DoStep from one output time to the next. It has no unknowns: the
// FMU integrates itself, and the Simulator cannot run it.
#pragma once

#include <memory>
#include <vector>

#include "archive.hpp"
#include "cosimulation_instance.hpp"
#include "hdae/fmi.hpp"
#include "model_description.hpp"
#include "shared_library.hpp"

namespace hdae::fmi::detail {

class CoSimulationModel final : public Fmu {
 public:
  CoSimulationModel(UnpackDirectory directory, std::unique_ptr<SharedLibrary> library,
                    ModelDescription description, const LoadOptions& options);

  [[nodiscard]] const FmuInfo& info() const override { return description_.info; }
  [[nodiscard]] std::vector<std::string> messages() const override { return log_.messages(); }
  /// ModelError: the FMU steps itself (co_simulate); no solver of hdae integrates it.
  void evaluate(Evaluation& e) override;
  [[nodiscard]] SimulationResult co_simulate(const SimulationOptions& options) override;

 private:
  /// The result's columns: states, derivatives, then outputs that are neither.
  [[nodiscard]] std::vector<ColumnInfo> columns() const;
  /// Reset, parameters and inputs, and initialization at options.start_s.
  void start(const SimulationOptions& options);
  /// Appends the FMU's values at t to result's table.
  void record(double t, SimulationResult& result);
  /// Steps to each output time in turn; the status says where it ended.
  void step_through(const std::vector<double>& times, const SimulationOptions& options,
                    SimulationResult& result);

  // Member order is destruction order in reverse: the instance goes before the library that
  // holds its code, which goes before the directory its file lies in.
  UnpackDirectory directory_;
  std::unique_ptr<SharedLibrary> library_;
  ModelDescription description_;
  FmuLog log_;
  std::unique_ptr<CoSimulationInstance> instance_;
  std::vector<ScalarVariable> settable_;  ///< parameters, then inputs
  std::vector<ScalarVariable> recorded_;  ///< in the order of columns()
  std::vector<Param> parameters_;
  std::vector<double> values_;  ///< a row's values, kept between rows
};

}  // namespace hdae::fmi::detail
