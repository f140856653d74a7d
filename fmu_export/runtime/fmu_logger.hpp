// How an exported FMU's instance talks to its importer (fmu_export/runtime/): the importer's
// logMessage callback, with the categories the description declares. Errors go out whatever
// fmi3SetDebugLogging said, as the standard asks of fmi3Error and of a failed instantiation;
// everything else only while logging is on.
#pragma once

#include <string>

#include "fmi3_api.h"

namespace hdae::fmu_export {

/// The log categories of modelDescription.xml (model_description.cpp writes the same names).
inline constexpr const char* kLogError = "logStatusError";
inline constexpr const char* kLogEvents = "logEvents";
inline constexpr const char* kLogSolver = "logSolver";

class FmuLogger {
 public:
  FmuLogger(std::string instance_name, fmi3InstanceEnvironment environment,
            fmi3LogMessageCallback callback, bool on)
      : instance_name_(std::move(instance_name)),
        environment_(environment),
        callback_(callback),
        on_(on) {}

  void set_on(bool on) { on_ = on; }
  /// fmi3Error with the message, prefixed by the instance's name.
  void error(const std::string& message) const;
  /// fmi3OK in the given category, while logging is on.
  void info(const char* category, const std::string& message) const;
  /// fmi3Warning in the given category, while logging is on.
  void warning(const char* category, const std::string& message) const;

 private:
  void send(fmi3Status status, const char* category, const std::string& message) const;

  std::string instance_name_;
  fmi3InstanceEnvironment environment_;
  fmi3LogMessageCallback callback_;
  bool on_;
};

}  // namespace hdae::fmu_export
