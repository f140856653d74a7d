// One instance of an FMU's model, in terms both FMI versions share: the calls of Model
// Exchange as the adapter (fmu_model.hpp) makes them, each checked, with the messages of the
// FMU kept in an FmuLog. Fmi3Instance and Fmi2Instance (make_fmi3_instance, make_fmi2_instance)
// translate them into the calls of their version.
#pragma once

#include <cstdint>
#include <deque>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model_description.hpp"
#include "shared_library.hpp"

namespace hdae::fmi::detail {

/// A status of either version: the codes are the same up to Fatal, FMI 2.0 adds Pending.
enum class CallStatus { kOk, kWarning, kDiscard, kError, kFatal, kPending };

[[nodiscard]] std::string_view to_string(CallStatus status);

/// The messages an FMU logged, oldest first. add() is called from the FMU's log callback and
/// never throws.
class FmuLog {
 public:
  void add(CallStatus status, const char* category, const char* message) noexcept;
  [[nodiscard]] std::vector<std::string> messages() const {
    return {messages_.begin(), messages_.end()};
  }
  /// The last message, or "" when there is none.
  [[nodiscard]] std::string last() const { return messages_.empty() ? "" : messages_.back(); }

 private:
  /// A chatty FMU logs at every call; the oldest messages go first so a long run stays small.
  static constexpr std::size_t kKept = 1000;
  std::deque<std::string> messages_;
};

/// What a discrete-state update reports (fmi3UpdateDiscreteStates, fmi2NewDiscreteStates).
struct DiscreteUpdate {
  bool needs_update = false;  ///< another update at this instant
  bool terminate = false;
  bool nominals_changed = false;
  bool values_changed = false;  ///< new values of the continuous states
  std::optional<double> next_event_time;
};

/// What CompletedIntegratorStep reports.
struct StepReport {
  bool enter_event_mode = false;
  bool terminate = false;
};

/// How an instance is made.
struct InstanceSettings {
  std::string fmu_name;             ///< the .fmu file's name, for messages
  std::filesystem::path resources;  ///< the unpacked resources/ folder
  bool debug_logging = false;       ///< loggingOn
  FmuLog* log = nullptr;            ///< receives the FMU's messages; outlives the instance
};

/// The settings of an FMU unpacked into `unpacked`, whose messages go to log.
inline InstanceSettings instance_settings(const ModelDescription& description,
                                          const std::filesystem::path& unpacked, bool debug_logging,
                                          FmuLog& log) {
  return {.fmu_name = description.info.path.filename().string(),
          .resources = unpacked / "resources",
          .debug_logging = debug_logging,
          .log = &log};
}

class FmuInstance {
 public:
  FmuInstance(const ModelDescription& description, const InstanceSettings& settings)
      : description_(description), fmu_name_(settings.fmu_name), log_(*settings.log) {}
  virtual ~FmuInstance() = default;
  FmuInstance(const FmuInstance&) = delete;
  FmuInstance& operator=(const FmuInstance&) = delete;

  /// Back to the state after instantiation (Reset), when the instance has been initialized.
  virtual void reset() = 0;
  /// Sets the Boolean structural parameter that switches on the DAE mode of fmi-ls-dae, in
  /// Configuration Mode (FMI 3.0 only; after instantiation or reset).
  virtual void enable_dae_mode(const ScalarVariable& parameter) = 0;
  /// Initialization Mode at start_s and out of it, into Event Mode.
  virtual void initialize(double start_s, std::optional<double> tolerance) = 0;
  virtual void enter_event_mode() = 0;
  [[nodiscard]] virtual DiscreteUpdate update_discrete_states() = 0;
  virtual void enter_continuous_time_mode() = 0;
  /// CompletedIntegratorStep at the time and states set last; hdae never sets an FMU state back.
  [[nodiscard]] virtual StepReport completed_integrator_step() = 0;
  virtual void set_time(double t) = 0;
  virtual void set_states(std::span<const double> x) = 0;
  virtual void get_states(std::span<double> x) = 0;
  virtual void get_derivatives(std::span<double> der_x) = 0;
  virtual void get_event_indicators(std::span<double> z) = 0;
  /// The values of the variables of the description (parameters, inputs, outputs).
  virtual void get_reals(std::span<const ScalarVariable> variables, std::span<double> values) = 0;
  virtual void set_reals(std::span<const ScalarVariable> variables,
                         std::span<const double> values) = 0;
  /// The change of the unknowns along the direction seed of the knowns (value references;
  /// fmi3GetDirectionalDerivative, fmi2GetDirectionalDerivative) at the values set last. Only
  /// for an FMU whose description provides directional derivatives.
  virtual void directional_derivative(std::span<const std::uint32_t> unknowns,
                                      std::span<const std::uint32_t> knowns,
                                      std::span<const double> seed,
                                      std::span<double> sensitivity) = 0;

  [[nodiscard]] const std::string& fmu_name() const { return fmu_name_; }
  /// The names of the states, their derivatives or the event indicators, for messages.
  [[nodiscard]] std::string state_names() const;
  [[nodiscard]] std::string derivative_names() const;
  [[nodiscard]] std::string indicator_names() const;
  [[nodiscard]] static std::string names_of(std::span<const ScalarVariable> variables);

 protected:
  /// Nothing for OK and Warning; RecoverableError for Discard (a smaller step may help);
  /// FmuError for Error, Fatal and Pending. The message names the FMU, the function, the time
  /// of the last set_time, the variables (when given) and the FMU's last message.
  void check(CallStatus status, const char* function, std::string_view variables = {});
  /// FmuError when a Fatal status came before: the instance may not be called any more.
  void require_alive(const char* function) const;
  [[nodiscard]] bool alive() const { return !fatal_; }
  [[nodiscard]] const ModelDescription& description() const { return description_; }

  double time_ = 0.0;  ///< the last time set, for messages

 private:
  const ModelDescription& description_;
  std::string fmu_name_;
  FmuLog& log_;
  bool fatal_ = false;
};

/// The instances of the two versions; FmuError naming the FMU when instantiation fails, IoError
/// when the binary lacks a function.
[[nodiscard]] std::unique_ptr<FmuInstance> make_fmi3_instance(const SharedLibrary& library,
                                                              const ModelDescription& description,
                                                              const InstanceSettings& settings);
[[nodiscard]] std::unique_ptr<FmuInstance> make_fmi2_instance(const SharedLibrary& library,
                                                              const ModelDescription& description,
                                                              const InstanceSettings& settings);

}  // namespace hdae::fmi::detail
