// What the instances of both versions share (fmu_instance.hpp): the log, the checks of every
// call's status and the names in their messages.
#include "fmu_instance.hpp"

#include <fmt/format.h>

#include "hdae/errors.hpp"

namespace hdae::fmi::detail {
namespace {

/// Messages name at most this many variables; the rest are counted.
constexpr std::size_t kNamesListed = 6;

std::string list(const std::vector<std::string>& names) {
  std::string text;
  for (std::size_t k = 0; k < names.size() && k < kNamesListed; ++k) {
    text += (k == 0 ? "" : ", ") + names[k];
  }
  if (names.size() > kNamesListed) text += fmt::format(" and {} more", names.size() - kNamesListed);
  return text;
}

}  // namespace

std::string_view to_string(CallStatus status) {
  switch (status) {
    case CallStatus::kOk:
      return "OK";
    case CallStatus::kWarning:
      return "Warning";
    case CallStatus::kDiscard:
      return "Discard";
    case CallStatus::kError:
      return "Error";
    case CallStatus::kFatal:
      return "Fatal";
    case CallStatus::kPending:
      return "Pending";
  }
  return "an unknown status";
}

void FmuLog::add(CallStatus status, const char* category, const char* message) noexcept {
  try {
    if (messages_.size() == kKept) messages_.pop_front();
    messages_.push_back(fmt::format("{} [{}] {}", to_string(status),
                                    category != nullptr ? category : "",
                                    message != nullptr ? message : ""));
  } catch (...) {  // NOLINT(bugprone-empty-catch): called from C; a lost message is no failure
  }
}

std::string FmuInstance::names_of(std::span<const ScalarVariable> variables) {
  std::vector<std::string> names;
  for (const ScalarVariable& v : variables) names.push_back(v.name);
  return list(names);
}

std::string FmuInstance::state_names() const {
  std::vector<std::string> names;
  for (const ContinuousState& s : description_.states) names.push_back(s.state.name);
  return list(names);
}

std::string FmuInstance::derivative_names() const {
  std::vector<std::string> names;
  for (const ContinuousState& s : description_.states) names.push_back(s.derivative.name);
  return list(names);
}

std::string FmuInstance::indicator_names() const { return list(description_.event_indicators); }

void FmuInstance::require_alive(const char* function) const {
  if (fatal_) {
    throw FmuError(
        fmt::format("FMU '{}': {} cannot be called: the FMU reported Fatal before "
                    "and cannot be used any more (load it anew)",
                    fmu_name_, function));
  }
}

void FmuInstance::check(CallStatus status, const char* function, std::string_view variables) {
  if (status == CallStatus::kOk || status == CallStatus::kWarning) return;
  const std::string prefix = description_.version == FmiVersion::kFmi3 ? "fmi3" : "fmi2";
  std::string message = fmt::format("FMU '{}': {} returned {}{} at t = {}", fmu_name_, function,
                                    prefix, to_string(status), time_);
  if (!variables.empty()) message += fmt::format(" (variables: {})", variables);
  if (const std::string last = log_.last(); !last.empty()) {
    message += fmt::format("; the FMU's last message: {}", last);
  }
  if (status == CallStatus::kDiscard) throw RecoverableError(message);
  if (status == CallStatus::kFatal) fatal_ = true;
  throw FmuError(message);
}

}  // namespace hdae::fmi::detail
