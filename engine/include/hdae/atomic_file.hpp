// Result files replaced atomically. A file is written under a temporary name in the directory
// of its target and renamed over the target only when it is complete (rename(2) replaces a
// file in one step within a file system). A run that is killed while writing (SIGKILL, a
// crash, a full disk) therefore leaves the previous file untouched beside a temporary
// ".<name>.tmp-<pid>-<n>"; readers never see a half-written result. A target that exists and
// is not a regular file (/dev/null, /dev/stdout, a named pipe) is written directly: there is
// nothing to replace and no directory entry to rename. A symbolic link is followed, so the
// file it points to is replaced and the link stays.
#pragma once

#include <filesystem>
#include <functional>

namespace hdae {

class AtomicFile {
 public:
  /// Chooses the temporary name; creates nothing. IoError for an empty target.
  explicit AtomicFile(std::filesystem::path target);
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  /// Removes the temporary file unless commit() renamed it.
  ~AtomicFile();

  /// The file as given.
  [[nodiscard]] const std::filesystem::path& target() const { return target_; }
  /// Where to write: the temporary file, or the target itself when it is not replaced.
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  /// Whether the target is (or will be) a regular file, replaced by commit().
  [[nodiscard]] bool replaces() const { return replaces_; }
  /// Renames the written temporary file over the target; throws IoError naming both.
  void commit();

 private:
  std::filesystem::path target_;
  std::filesystem::path final_;  ///< the target with symbolic links resolved
  std::filesystem::path path_;
  bool replaces_ = false;
  bool committed_ = false;
};

/// Writes target through write(path) under a temporary name and renames it into place when
/// write returns; when write throws, the temporary file is removed and the target kept.
void write_atomically(const std::filesystem::path& target,
                      const std::function<void(const std::filesystem::path& path)>& write);

}  // namespace hdae
