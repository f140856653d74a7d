// An FMU's binary, opened with dlopen and closed with its owner; its functions looked up by
// their unprefixed names, as FMI requires of a shared library.
#pragma once

#include <filesystem>
#include <string>

namespace hdae::fmi::detail {

class SharedLibrary {
 public:
  /// Opens path (RTLD_NOW | RTLD_LOCAL: every function resolved now, and two FMUs that export
  /// the same names do not see each other's). IoError naming the FMU and the library.
  SharedLibrary(const std::filesystem::path& path, std::string fmu_name);
  ~SharedLibrary();
  SharedLibrary(const SharedLibrary&) = delete;
  SharedLibrary& operator=(const SharedLibrary&) = delete;

  /// The function called name, of type F (a function type of fmi3_api.h or fmi2_api.h). IoError
  /// naming the FMU, the library and the function when the library does not export it.
  template <class F>
  [[nodiscard]] F* function(const char* name) const {
    return reinterpret_cast<F*>(address(name));
  }
  /// The same, or nullptr for a function the FMU may leave out.
  template <class F>
  [[nodiscard]] F* optional_function(const char* name) const {
    return reinterpret_cast<F*>(find(name));
  }

 private:
  [[nodiscard]] void* address(const char* name) const;
  [[nodiscard]] void* find(const char* name) const;

  void* handle_ = nullptr;
  std::string fmu_name_;
  std::string file_name_;
};

}  // namespace hdae::fmi::detail
