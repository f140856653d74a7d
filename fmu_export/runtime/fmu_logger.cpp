// The importer's logger (fmu_logger.hpp).
#include "fmu_logger.hpp"

namespace hdae::fmu_export {

void FmuLogger::send(fmi3Status status, const char* category, const std::string& message) const {
  if (callback_ == nullptr) return;
  const std::string text = "hdae FMU instance '" + instance_name_ + "': " + message;
  callback_(environment_, status, category, text.c_str());
}

void FmuLogger::error(const std::string& message) const { send(fmi3Error, kLogError, message); }

void FmuLogger::info(const char* category, const std::string& message) const {
  if (on_) send(fmi3OK, category, message);
}

void FmuLogger::warning(const char* category, const std::string& message) const {
  if (on_) send(fmi3Warning, category, message);
}

}  // namespace hdae::fmu_export
