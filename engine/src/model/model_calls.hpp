// Every call the engine makes into model code goes through ModelCalls, which knows in which
// phase of the run it is (set for a scope by PhaseScope) and, when model code throws, notes
// the phase and time before the exception travels on. That note is what lets the simulator
// tell a model's failure ("model 'm' failed in event handler at t = 2: ...") from an engine
// failure, and it replaces phase bookkeeping scattered over the run.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "hdae/errors.hpp"
#include "hdae/model.hpp"

namespace hdae::detail {

class CrossingTable;  // events/crossing_table.hpp

/// Where model code is being called.
enum class ModelPhase {
  kInitialization,   ///< SimulationModel::reset
  kIntegration,      ///< evaluate() for IDA (residuals, crossings) and at its restarts
  kEventEvaluation,  ///< evaluate() at an event instant (crossing Booleans updated)
  kEventHandler,     ///< SimulationModel::on_event
  kJumpSolve,        ///< evaluate() in the jump solve and the consistent derivatives
  kOutput,           ///< evaluate() with outputs, when a row is stored
};

[[nodiscard]] std::string_view to_string(ModelPhase phase);

/// Phase and time of a model call that threw.
struct ModelFailure {
  ModelPhase phase = ModelPhase::kInitialization;
  double t = 0.0;
};

class ModelCalls {
 public:
  ModelCalls(SimulationModel& model, CrossingTable* crossings)
      : model_(model), crossings_(crossings) {}

  [[nodiscard]] const ModelStructure& structure() const { return model_.structure(); }
  [[nodiscard]] SimulationModel& model() { return model_; }
  [[nodiscard]] const SimulationModel& model() const { return model_; }
  [[nodiscard]] ModelPhase phase() const { return phase_; }
  /// Set when model code threw (the first time); the exception itself travels on.
  [[nodiscard]] const std::optional<ModelFailure>& failure() const { return failure_; }

  void evaluate(double t, std::span<const double> x, std::span<const double> der_x,
                std::span<double> r, std::span<double> w, EvaluationPhase phase,
                CrossingValues crossing_values = CrossingValues::kUsed,
                ResidualValues residual_values = ResidualValues::kUsed) {
    Evaluation e(t, x, der_x, r, w, crossings_, phase, crossing_values, residual_values,
                 left_limits_);
    try {
      model_.evaluate(e);
    } catch (...) {
      note_failure(t);
      throw;
    }
  }
  /// evaluate() for IDA's residual in phase kContinuous, whose crossing values IDA does not use
  /// (Evaluation::wants_crossings): false when the model threw
  /// RecoverableError (IDA then retries with a smaller step; the message is kept for a
  /// failure report); any other exception is noted and travels on as in evaluate().
  bool evaluate_recoverable(double t, std::span<const double> x, std::span<const double> der_x,
                            std::span<double> r) {
    Evaluation e(t, x, der_x, r, {}, crossings_, EvaluationPhase::kContinuous,
                 CrossingValues::kUnused);
    try {
      model_.evaluate(e);
    } catch (const RecoverableError& error) {
      recoverable_ = RecoverableNote{t, error.what()};
      return false;
    } catch (...) {
      note_failure(t);
      throw;
    }
    return true;
  }
  /// The last RecoverableError that IDA's retry absorbed, if any.
  struct RecoverableNote {
    double t = 0.0;
    std::string what;
  };
  [[nodiscard]] const std::optional<RecoverableNote>& last_recoverable() const {
    return recoverable_;
  }
  void on_event(EventContext& context);
  /// SimulationModel::completed_step; an exception is noted and travels on as in evaluate().
  bool completed_step(double t, std::span<const double> x, std::span<const double> der_x) {
    try {
      return model_.completed_step(t, x, der_x);
    } catch (...) {
      note_failure(t);
      throw;
    }
  }
  void reset(double t);
  /// SimulationModel::jacobian: false when the model threw RecoverableError (kept as
  /// evaluate_recoverable keeps it); any other exception is noted and travels on.
  bool jacobian(double t, double cj, std::span<const double> x, std::span<const double> der_x,
                JacobianEntries& entries);
  void constraint_time_derivative(double t, std::span<const double> x, std::span<double> dfc_dt);
  /// A misuse of the model contract found by the engine in the current phase at t (a crossing
  /// used twice in one evaluation): noted like a failure of model code, then thrown as
  /// ModelError with this message.
  [[noreturn]] void fail(double t, const std::string& message);

 private:
  friend class PhaseScope;
  friend class LeftLimitScope;
  void note_failure(double t) {
    if (!failure_) failure_ = ModelFailure{phase_, t};
  }

  SimulationModel& model_;
  CrossingTable* crossings_;
  ModelPhase phase_ = ModelPhase::kInitialization;
  /// x^- of the jump being solved (LeftLimitScope), for Evaluation::left_limit.
  std::span<const double> left_limits_;
  std::optional<ModelFailure> failure_;
  std::optional<RecoverableNote> recoverable_;
};

/// Sets the phase of model calls for a scope and restores the previous one when it ends.
class PhaseScope {
 public:
  PhaseScope(ModelCalls& calls, ModelPhase phase) : calls_(calls), saved_(calls.phase_) {
    calls_.phase_ = phase;
  }
  PhaseScope(const PhaseScope&) = delete;
  PhaseScope& operator=(const PhaseScope&) = delete;
  ~PhaseScope() { calls_.phase_ = saved_; }

 private:
  ModelCalls& calls_;
  ModelPhase saved_;
};

/// Gives evaluate() the state before a jump as its left limits (Evaluation::left_limit) for a
/// scope: the jump solve and the consistent derivatives that follow it. The span must outlive
/// the scope.
class LeftLimitScope {
 public:
  LeftLimitScope(ModelCalls& calls, std::span<const double> x_minus)
      : calls_(calls), saved_(calls.left_limits_) {
    calls_.left_limits_ = x_minus;
  }
  LeftLimitScope(const LeftLimitScope&) = delete;
  LeftLimitScope& operator=(const LeftLimitScope&) = delete;
  ~LeftLimitScope() { calls_.left_limits_ = saved_; }

 private:
  ModelCalls& calls_;
  std::span<const double> saved_;
};

}  // namespace hdae::detail
