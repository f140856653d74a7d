// The C boundary of an exported FMU (fmu_export/runtime/fmi3_*.cpp): how the fmi3* functions
// are exported (the only symbols the runtime's shared library shows; everything else is
// hidden) and the guard every function runs its work in, so that no exception reaches the
// importer: each becomes fmi3Error and a logger message naming the function.
#pragma once

#include <exception>
#include <string>

#include "fmi3_api.h"
#include "fmu_instance.hpp"

// The runtime is compiled with -fvisibility=hidden; these are the exceptions.
#define HDAE_FMI3_API extern "C" __attribute__((visibility("default")))

namespace hdae::fmu_export {

/// Runs work(instance) and answers fmi3OK, or fmi3Error with a logger message when it throws.
/// A null instance is fmi3Error without a message: there is no logger to tell.
template <class Work>
fmi3Status guarded(fmi3Instance instance, const char* function, Work&& work) {
  if (instance == nullptr) return fmi3Error;
  auto& self = *static_cast<FmuInstance*>(instance);
  try {
    work(self);
    return fmi3OK;
  } catch (const std::exception& e) {
    self.logger().error(std::string(function) + ": " + e.what());
  } catch (...) {
    self.logger().error(std::string(function) + ": failed with an exception of unknown type");
  }
  return fmi3Error;
}

/// fmi3Error with the message "<function> is not supported by this FMU: <why>".
fmi3Status unsupported(fmi3Instance instance, const char* function, const char* why);

}  // namespace hdae::fmu_export
