// A fresh directory under the system temp directory for tests that write files; removed with
// everything in it when the test ends. A random name keeps parallel test runs apart.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace hdae::test {

class TempDir {
 public:
  TempDir() {
    std::random_device device;
    const std::uint64_t id = (std::uint64_t{device()} << 32) | std::uint64_t{device()};
    path_ = std::filesystem::temp_directory_path() / fmt::format("hdae-test-{:016x}", id);
    std::filesystem::create_directory(path_);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  [[nodiscard]] std::filesystem::path file(std::string_view name) const { return path_ / name; }

  /// Writes text verbatim (binary mode: no line-ending translation) and returns the path.
  std::filesystem::path write(std::string_view name, std::string_view text) const {
    const std::filesystem::path p = file(name);
    std::ofstream out(p, std::ios::binary);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    return p;
  }

  /// The whole content of a file in this directory.
  [[nodiscard]] std::string read(std::string_view name) const {
    std::ifstream in(file(name), std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }

 private:
  std::filesystem::path path_;
};

}  // namespace hdae::test
