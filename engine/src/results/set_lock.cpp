#include "results/set_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>

namespace hdae::detail {

SetLock::SetLock(const std::filesystem::path& file) {
  const std::filesystem::path directory =
      file.has_parent_path() ? file.parent_path() : std::filesystem::path(".");
  descriptor_ = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (descriptor_ < 0) return;
  int status = 0;
  do {
    status = ::flock(descriptor_, LOCK_EX);
  } while (status != 0 && errno == EINTR);
  if (status != 0) {
    ::close(descriptor_);
    descriptor_ = -1;
  }
}

SetLock::~SetLock() {
  if (descriptor_ >= 0) ::close(descriptor_);  // closing the descriptor releases the lock
}

}  // namespace hdae::detail
