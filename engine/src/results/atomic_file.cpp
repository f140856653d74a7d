// AtomicFile (hdae/atomic_file.hpp): temporary name beside the target, rename when complete.
#include "hdae/atomic_file.hpp"

#include <unistd.h>

#include <atomic>
#include <system_error>

#include <fmt/format.h>

#include "hdae/errors.hpp"

namespace hdae {
namespace {

/// Distinguishes the temporary files of one process (two files for the same target at once).
std::atomic<unsigned long> temporary_count{0};

}  // namespace

AtomicFile::AtomicFile(std::filesystem::path target) : target_(std::move(target)) {
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(target_, ec);
  const bool exists = std::filesystem::exists(status);
  replaces_ = !exists || std::filesystem::is_regular_file(status);
  if (!replaces_) {
    path_ = target_;
    return;
  }
  // Through a symbolic link the file it names is replaced, not the link.
  final_ = exists ? std::filesystem::canonical(target_, ec) : target_;
  if (ec) final_ = target_;
  const std::string name = fmt::format(".{}.tmp-{}-{}", final_.filename().string(), ::getpid(),
                                       temporary_count.fetch_add(1));
  path_ = final_.parent_path() / name;
}

AtomicFile::~AtomicFile() {
  if (!replaces_ || committed_) return;
  std::error_code ec;
  std::filesystem::remove(path_, ec);  // the target keeps its previous content
}

void AtomicFile::commit() {
  if (!replaces_ || committed_) return;
  std::error_code ec;
  std::filesystem::rename(path_, final_, ec);
  if (ec) {
    throw IoError(fmt::format("{}: cannot replace it with the written file {}: {}",
                              target_.string(), path_.string(), ec.message()));
  }
  committed_ = true;
}

void write_atomically(const std::filesystem::path& target,
                      const std::function<void(const std::filesystem::path& path)>& write) {
  AtomicFile file(target);
  write(file.path());
  file.commit();
}

}  // namespace hdae
