// SharedLibrary (shared_library.hpp): dlopen, dlsym, dlclose.
#include "shared_library.hpp"

#include <dlfcn.h>

#include <fmt/format.h>

#include "hdae/errors.hpp"

namespace hdae::fmi::detail {

SharedLibrary::SharedLibrary(const std::filesystem::path& path, std::string fmu_name)
    : fmu_name_(std::move(fmu_name)), file_name_(path.filename().string()) {
  handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle_ == nullptr) {
    const char* why = dlerror();
    throw IoError(fmt::format("FMU '{}': cannot load its binary {} ({})", fmu_name_, file_name_,
                              why != nullptr ? why : "no reason given"));
  }
}

SharedLibrary::~SharedLibrary() {
  if (handle_ != nullptr) dlclose(handle_);
}

void* SharedLibrary::find(const char* name) const { return dlsym(handle_, name); }

void* SharedLibrary::address(const char* name) const {
  void* f = find(name);
  if (f == nullptr) {
    throw IoError(fmt::format("FMU '{}': its binary {} does not export the function {}", fmu_name_,
                              file_name_, name));
  }
  return f;
}

}  // namespace hdae::fmi::detail
