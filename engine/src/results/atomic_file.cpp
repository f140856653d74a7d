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

/// The longest file name the directory takes (NAME_MAX of its file system).
std::size_t longest_name(const std::filesystem::path& directory) {
  const std::filesystem::path where = directory.empty() ? std::filesystem::path(".") : directory;
  const long limit = ::pathconf(where.c_str(), _PC_NAME_MAX);
  return limit > 0 ? static_cast<std::size_t>(limit) : 255;
}

/// ".<name>.tmp-<pid>-<n>", with <name> cut (at a character boundary of UTF-8) so that the
/// whole fits in the directory wherever the target's own name fits: a target of 250 bytes
/// must not fail for its temporary's sake.
std::string temporary_name(const std::filesystem::path& target) {
  const std::string suffix = fmt::format(".tmp-{}-{}", ::getpid(), temporary_count.fetch_add(1));
  std::string name = target.filename().string();
  const std::size_t limit = longest_name(target.parent_path());
  if (1 + name.size() + suffix.size() > limit) {
    std::size_t keep = limit > suffix.size() + 1 ? limit - suffix.size() - 1 : 0;
    // Continuation bytes of UTF-8 are 10xxxxxx: cut before a character's first byte.
    while (keep > 0 && keep < name.size() &&
           (static_cast<unsigned char>(name[keep]) & 0xC0) == 0x80) {
      --keep;
    }
    name.resize(std::min(keep, name.size()));
  }
  return "." + name + suffix;
}

}  // namespace

AtomicFile::AtomicFile(std::filesystem::path target) : target_(std::move(target)) {
  // An empty name would make its temporary and side files in the working directory.
  if (target_.empty()) throw IoError("the result file's path must not be empty");
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
  path_ = final_.parent_path() / temporary_name(final_);
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
