// Result files that belong together (a CSV table and its units, event log and parameters
// beside it) are renamed into place under an exclusive lock of their directory, so that two
// runs writing the same result set at once leave all of one run's files, never a mix
// (docs/design.md, "The data path").
#pragma once

#include <filesystem>

namespace hdae::detail {

class SetLock {
 public:
  /// Waits for the exclusive flock(2) of the directory holding file. Where the directory
  /// cannot be opened or locked (no permission, a file system without locks) the files are
  /// renamed without it, one by one, as they would be anyway.
  explicit SetLock(const std::filesystem::path& file);
  SetLock(const SetLock&) = delete;
  SetLock& operator=(const SetLock&) = delete;
  /// Releases the lock.
  ~SetLock();

 private:
  int descriptor_ = -1;
};

}  // namespace hdae::detail
