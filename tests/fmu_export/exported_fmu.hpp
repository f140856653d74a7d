// An FMU exported by `hdae fmu export` (tests/fmu_export/), unpacked and loaded as an importer
// would: its binary opened with dlopen, its fmi3* functions looked up by name, and a logger
// that keeps every message for the tests to read.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "archive.hpp"
#include "fmi3_api.h"
#include "shared_library.hpp"

namespace hdae::test {

/// The runtime library the hdae program ships (built beside it).
inline std::filesystem::path fmu_runtime() { return HDAE_FMU_RUNTIME_FILE; }

/// The exporter's output for `hdae fmu export <model> -o <dir>/<model>.fmu [--set ...]`,
/// made once per test program run for each distinct command line and kept until it ends.
/// Fails the test (REQUIRE) when the export does not succeed.
const std::filesystem::path& exported_fmu(const std::string& model,
                                          const std::vector<std::string>& sets = {});

/// The messages an instance sent to its logger: "<status>|<category>|<message>".
struct LogBook {
  std::vector<std::string> messages;
  /// Whether some message contains text.
  [[nodiscard]] bool contains(const std::string& text) const;
  [[nodiscard]] std::string all() const;
};
void log_to_book(fmi3InstanceEnvironment book, fmi3Status status, fmi3String category,
                 fmi3String message);

/// An exported FMU unpacked into a temporary folder with its binary loaded.
class LoadedFmu {
 public:
  explicit LoadedFmu(const std::filesystem::path& fmu);
  [[nodiscard]] const std::filesystem::path& folder() const { return unpacked_.path(); }
  [[nodiscard]] std::string resources() const { return (folder() / "resources").string() + "/"; }
  [[nodiscard]] std::string file_text(const std::string& name) const;
  /// The token of the description (its instantiationToken attribute).
  [[nodiscard]] std::string token() const;

  /// A new instance with logging on and book as logger (early return allowed or not); nullptr
  /// when instantiation fails.
  fmi3Instance instantiate(LogBook& book, const std::string& resources, const std::string& token,
                           bool early_return = false) const;
  fmi3Instance instantiate(LogBook& book, bool early_return = false) const {
    return instantiate(book, resources(), token(), early_return);
  }

  fmi::detail::SharedLibrary& library() { return *library_; }
  template <class F>
  F* function(const char* name) const {
    return library_->function<F>(name);
  }

 private:
  fmi::detail::UnpackDirectory unpacked_;
  std::unique_ptr<fmi::detail::SharedLibrary> library_;
};

}  // namespace hdae::test
