// Exceptions for misuse (docs/design.md, "Errors and outcomes"): bad options, inconsistent model
// declarations, malformed input files. Numerical outcomes are not exceptions; they come back in
// SimulationStatus (status.hpp).
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

namespace hdae {

/// An option is out of its documented range; the message names the field and the rule.
class OptionError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// A model's declarations are inconsistent; the message names the variable or equation.
class ModelError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// A file cannot be read or written, or its content is malformed; names file and line.
class IoError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Thrown by a model's evaluate() when it cannot be evaluated at the state it was given but
/// a smaller step would help (sqrt of a quantity an overlong step made negative, a table
/// looked up beyond its range). Within IDA's steps it works like a NaN residual: the residual
/// callback reports a recoverable failure and IDA retries with a smaller step (a run whose
/// retries all fail ends with Outcome::kSolverFailure, naming the last message). Anywhere
/// else (the initial and event iterations, the jump solve, outputs, IDA's crossing checks,
/// which have no retry) no step can be shortened: the run ends with a ModelCallbackError
/// whose message says so.
class RecoverableError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct SimulationResult;

/// A run ended by an exception: the message says what failed, where and when, the original
/// exception is nested (std::rethrow_if_nested), and partial_result() holds the rows and
/// events computed so far, with a last row at the failure time (NaN outputs when the model
/// cannot compute them there) or, for a failure during integration, at IDA's last completed
/// step.
class RunError : public std::runtime_error {
 public:
  RunError(const std::string& message, std::shared_ptr<const SimulationResult> partial)
      : std::runtime_error(message), partial_(std::move(partial)) {}
  [[nodiscard]] const std::shared_ptr<const SimulationResult>& partial_result() const {
    return partial_;
  }

 private:
  std::shared_ptr<const SimulationResult> partial_;
};

/// Model code threw. The message names the model, the phase (initialization, integration,
/// event evaluation, event handler, jump solve, output) and the time; the partial result's
/// status is Outcome::kModelFailure.
class ModelCallbackError : public RunError {
 public:
  using RunError::RunError;
};

/// The engine itself failed: a SUNDIALS call, memory, a row sink that cannot take rows. Not
/// the model's fault; the partial result's status is Outcome::kEngineFailure.
class EngineError : public RunError {
 public:
  using RunError::RunError;
};

}  // namespace hdae
