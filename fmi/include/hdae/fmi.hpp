// Import of Functional Mock-up Units for Model Exchange (FMI 3.0 and 2.0) as hdae models, and
// of FMI 3.0 Co-Simulation FMUs, which step themselves (Fmu::co_simulate).
//
// hdae::fmi sits above the engine, beside hdae::models: it uses the engine's public headers
// only, and what it makes is an ordinary SimulationModel that the Simulator drives like any
// other (docs/design.md, "FMI Model Exchange"). An FMU's continuous states become differential
// unknowns with the explicit rows der(x) - f(x) = 0, f from the FMU; its event indicators
// become crossings (an event when an indicator changes between > 0 and <= 0); the event
// iteration of the engine calls the FMU's discrete-state update until it asks for no more,
// takes new state values as a jump, schedules the FMU's next event time as a time event and
// stops cleanly when the FMU asks to terminate. Float64 parameters (fixed or tunable) and
// inputs (held at a constant value through a run) are parameters, set like those of any
// model (set_parameter, `hdae run --set`); Float64 outputs are output columns. An FMI 3.0 FMU
// with the manifest of the layered standard fmi-ls-dae runs in its DAE mode: its algebraic
// variables are further unknowns and its residuals constraint rows (FmuInfo::dae_mode).
//
//   std::unique_ptr<hdae::fmi::Fmu> ball = hdae::fmi::load("BouncingBall.fmu");
//   ball->set_parameter("e", 0.8);
//   hdae::SimulationResult r = hdae::simulate(*ball, options);
//
// Misuse and broken files throw: IoError for an FMU that cannot be read (the message names the
// file and what is wrong, with the line of modelDescription.xml), FmuError for a function of
// the FMU that fails (naming the FMU, the function, the time and the variables). Within a run
// these come back as ModelCallbackError with the FMU's error nested (hdae/errors.hpp); a
// function that answers Discard, or a derivative that is not finite, is a RecoverableError, so
// the integrator first retries with a smaller step.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "hdae/model_builder.hpp"
#include "hdae/options.hpp"
#include "hdae/result.hpp"
#include "hdae/row_sink.hpp"

namespace hdae::fmi {

/// A function of an FMU returned Error or Fatal; the message names the FMU file, the function,
/// the time and the variables concerned, and ends with the last message the FMU logged.
class FmuError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The interface of an FMU hdae runs: Model Exchange (hdae's solvers integrate the FMU's
/// equations) or Co-Simulation (the FMU steps itself with fmi3DoStep).
enum class Interface { kModelExchange, kCoSimulation };

/// How load() treats an FMU.
struct LoadOptions {
  /// The interface to import. Not given: Model Exchange when the FMU has it, else
  /// Co-Simulation. IoError when the FMU lacks the interface asked for.
  std::optional<Interface> fmi_interface;
  /// Where the archive is unpacked. Empty: a new directory under the system's temporary
  /// directory, removed with the model. Given: it must not exist or be empty; it is kept.
  std::filesystem::path unpack_directory;
  /// Asks the FMU for its debug messages (loggingOn); every message is kept in Fmu::messages.
  bool debug_logging = false;
  /// A Model Exchange FMU that provides directional derivatives
  /// (FmuInfo::provides_directional_derivatives) gives the integrator's Newton matrix from them,
  /// column by column; false, or an FMU without them: difference quotients of the derivatives,
  /// whose error in a stiff model can take Newton off the slow manifold.
  bool directional_derivatives = true;
};

/// What an FMU says about itself beyond the model's structure.
struct FmuInfo {
  std::filesystem::path path;       ///< the .fmu file as given to load()
  std::string fmi_version;          ///< "3.0" or "2.0" (the modelDescription's fmiVersion)
  std::string model_name;           ///< modelName
  std::string model_identifier;     ///< the shared library's name, without .so
  std::string generation_tool;      ///< may be empty
  std::string description;          ///< may be empty
  double start_s = 0.0;             ///< DefaultExperiment startTime (0 when not given)
  std::optional<double> stop_s;     ///< DefaultExperiment stopTime
  std::optional<double> tolerance;  ///< DefaultExperiment tolerance (relative)
  Interface fmi_interface = Interface::kModelExchange;  ///< the interface imported
  /// The FMU asks for CompletedIntegratorStep after every integrator step; hdae calls it there,
  /// and a request for Event Mode is an event of kind kStep at the step's end.
  bool needs_completed_integrator_step = false;
  /// The Model Exchange interface has fmi3GetDirectionalDerivative (providesDirectionalDerivatives;
  /// FMI 2.0: fmi2GetDirectionalDerivative, providesDirectionalDerivative).
  bool provides_directional_derivatives = false;
  /// The FMU follows the layered standard fmi-ls-dae (its manifest in
  /// extra/org.fmi-standard.fmi-ls-dae/) and runs in its DAE mode: its algebraic variables are
  /// unknowns of hdae and its residuals constraint rows (docs/fmi.md, "DAE FMUs").
  bool dae_mode = false;
};

/// Receivers of a Co-Simulation run's rows and events besides those SimulationOptions::sinks
/// names (a progress display, a plot): what Simulator::add_row_sink and add_event_observer add
/// to a Simulator's run. They must outlive the run.
struct RunListeners {
  std::vector<RowSink*> sinks;  ///< after the sinks of the options, in this order
  std::vector<EventObserver*> observers;
};

/// An imported Model Exchange FMU: a Model whose unknowns, rows, crossings, outputs and
/// parameters come from the FMU (see above).
class Fmu : public Model {
 public:
  using Model::Model;
  [[nodiscard]] virtual const FmuInfo& info() const = 0;
  /// Every message the FMU logged so far, "<status> [<category>] <message>", oldest first.
  [[nodiscard]] virtual std::vector<std::string> messages() const = 0;
  /// A Co-Simulation FMU's run (info().fmi_interface says which interface was imported): the
  /// FMU steps from options.start_s to options.stop_s with fmi3DoStep, one communication step
  /// per interval of options.output_interval_s (or to each of options.output_times), and the
  /// table holds its states, derivatives and outputs at each communication point, the columns
  /// and rows chosen by options.record_* as in a Simulator's run (with its OptionError for a
  /// column the FMU lacks). Events happen inside the FMU's steps and leave no rows; one the FMU
  /// reports by returning early from a step (or with eventHandlingNeeded) is an event record
  /// at its time, of kind kState (the FMU does not say which kind), and a request to terminate
  /// a kTerminal record. An FMU that declares hasEventMode hands its events to the run, which
  /// calls its discrete-state updates in Event Mode after the step that met them. The rows go to
  /// the sinks of options.sinks (the table, CSV and HDF5 files streamed as the run goes), then to
  /// listeners.sinks, and the event records to the HDF5 files and listeners.observers, as in a
  /// Simulator's run. options.cancel and options.max_wall_time_s end the run between communication
  /// steps. A Model Exchange FMU runs with the Simulator instead: ModelError. RunError with the
  /// rows so far when a function of the FMU fails, or when the FMU keeps returning early at one
  /// instant.
  [[nodiscard]] virtual SimulationResult co_simulate(const SimulationOptions& options,
                                                     const RunListeners& listeners = {});
};

/// Unpacks the FMU at path, reads its modelDescription.xml, loads its binary for this platform
/// (binaries/x86_64-linux/<modelIdentifier>.so for FMI 3.0, binaries/linux64/ for FMI 2.0) and
/// instantiates it. IoError naming the file when it cannot be read, is no zip archive, has no
/// or a malformed modelDescription.xml, neither interface (or not the one asked for), or no
/// binary; FmuError when instantiation fails.
[[nodiscard]] std::unique_ptr<Fmu> load(const std::filesystem::path& path,
                                        const LoadOptions& options = {});

}  // namespace hdae::fmi
