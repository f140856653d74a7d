// The FMU as a zip archive on disk: a directory it is unpacked into (a new temporary one removed
// with its owner, or one the user names and keeps) and the unpacking itself (libzip).
#pragma once

#include <filesystem>
#include <string>

namespace hdae::fmi::detail {

/// The directory an FMU lives in while it is loaded.
class UnpackDirectory {
 public:
  /// A new, empty directory under the system's temporary directory, removed by the destructor
  /// (IoError naming the FMU when it cannot be made).
  static UnpackDirectory temporary(const std::string& fmu_name);
  /// The given directory, made when missing and kept afterwards; IoError when it holds files.
  static UnpackDirectory kept(const std::filesystem::path& path, const std::string& fmu_name);

  UnpackDirectory(UnpackDirectory&& other) noexcept;
  UnpackDirectory& operator=(UnpackDirectory&&) = delete;
  UnpackDirectory(const UnpackDirectory&) = delete;
  UnpackDirectory& operator=(const UnpackDirectory&) = delete;
  ~UnpackDirectory();

  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  enum class Lifetime { kRemoved, kKept };
  UnpackDirectory(std::filesystem::path path, Lifetime lifetime)
      : path_(std::move(path)), lifetime_(lifetime) {}

  std::filesystem::path path_;
  Lifetime lifetime_;
};

/// Writes every entry of the zip archive fmu into directory. IoError naming fmu_name when the
/// file is missing, is no zip archive, or holds an entry whose path would leave the directory
/// (absolute, or through "..").
void unpack(const std::filesystem::path& fmu, const std::filesystem::path& directory,
            const std::string& fmu_name);

}  // namespace hdae::fmi::detail
