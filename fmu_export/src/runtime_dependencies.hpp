// The shared libraries an exported FMU carries beside its binary (fmu_export/): the runtime
// links hdae statically, but SUNDIALS, SuiteSparse, fmt, HDF5 and what they need are Debian's
// shared libraries, absent on a machine without them. The dynamic loader's own answer (ldd on
// the runtime) lists them; the C and C++ runtime (glibc's libraries, the loader, libstdc++,
// libgcc_s, libgomp) stays with the system, which every Linux that runs the binary has. The
// runtime's RPATH is $ORIGIN (DT_RPATH, which also serves the libraries' own dependencies).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace hdae::fmu_export {

/// The libraries to copy beside the runtime, as the loader resolves them (no symbolic links:
/// the files, to be stored under their sonames). IoError when ldd cannot be run or a library
/// is not found.
struct ShippedLibrary {
  std::string soname;          ///< the name the runtime asks for, e.g. libfmt.so.9
  std::filesystem::path file;  ///< where it is on this machine
};
[[nodiscard]] std::vector<ShippedLibrary> shipped_libraries(const std::filesystem::path& runtime);

/// Whether a library of that soname stays on the system (the C and C++ runtime).
[[nodiscard]] bool system_library(const std::string& soname);

}  // namespace hdae::fmu_export
