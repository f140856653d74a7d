// Exceptions for misuse (STYLE.md "Errors"): bad options, inconsistent model declarations,
// malformed input files. Numerical outcomes are not exceptions; they come back in
// SimulationStatus (status.hpp).
#pragma once

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

/// A model callback threw; carries the phase and time, wraps the original message.
class ModelCallbackError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace hdae
