// The libraries shipped with an exported FMU (runtime_dependencies.hpp), listed by ldd.
#include "runtime_dependencies.hpp"

#include <stdio.h>

#include <array>
#include <memory>
#include <sstream>
#include <string>

#include <fmt/format.h>

#include "hdae/errors.hpp"

namespace hdae::fmu_export {

bool system_library(const std::string& soname) {
  static const char* const kSystem[] = {
      "linux-vdso.so", "ld-linux",      "libc.so",    "libm.so",      "libmvec.so",
      "libdl.so",      "libpthread.so", "librt.so",   "libresolv.so", "libutil.so",
      "libstdc++.so",  "libgcc_s.so",   "libgomp.so", "libanl.so",    "libnsl.so"};
  for (const char* prefix : kSystem) {
    if (soname.starts_with(prefix) || soname.find(std::string("/") + prefix) != std::string::npos) {
      return true;
    }
  }
  return false;
}

namespace {

struct PipeCloser {
  void operator()(FILE* pipe) const { pclose(pipe); }
};

/// ldd's output for file: "<soname> => <path> (<address>)" per library.
std::string ldd_output(const std::filesystem::path& file) {
  std::string quoted = "'";
  for (const char c : file.string()) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  quoted += "'";
  std::unique_ptr<FILE, PipeCloser> pipe(popen(("ldd " + quoted + " 2>&1").c_str(), "r"));
  if (!pipe) throw IoError(fmt::format("cannot run ldd on '{}'", file.string()));
  std::string text;
  std::array<char, 4096> buffer{};
  while (fgets(buffer.data(), static_cast<int>(buffer.size()), pipe.get()) != nullptr) {
    text += buffer.data();
  }
  // A runtime ldd cannot read would ship without its libraries: an FMU that loads nowhere.
  if (pclose(pipe.release()) != 0) {
    throw IoError(fmt::format("ldd cannot list the libraries of the FMU runtime '{}': {}",
                              file.string(), text));
  }
  return text;
}

}  // namespace

std::vector<ShippedLibrary> shipped_libraries(const std::filesystem::path& runtime) {
  std::istringstream lines(ldd_output(runtime));
  std::vector<ShippedLibrary> libraries;
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string soname, arrow, path;
    words >> soname >> arrow >> path;
    if (arrow != "=>" || system_library(soname)) continue;
    if (path == "not") {
      throw IoError(fmt::format("the FMU runtime '{}' needs {}, which is not found here",
                                runtime.string(), soname));
    }
    std::error_code ec;
    const std::filesystem::path file = std::filesystem::canonical(path, ec);
    if (ec) continue;  // a virtual object without a file
    libraries.push_back({soname, file});
  }
  return libraries;
}

}  // namespace hdae::fmu_export
