// Unpacking an FMU (archive.hpp) with libzip.
#include "archive.hpp"

#include <zip.h>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <system_error>

#include <fmt/format.h>

#include "hdae/errors.hpp"

namespace hdae::fmi::detail {
namespace {

namespace fs = std::filesystem;

struct ArchiveCloser {
  void operator()(zip_t* archive) const { zip_discard(archive); }
};
struct EntryCloser {
  void operator()(zip_file_t* entry) const { zip_fclose(entry); }
};
using Archive = std::unique_ptr<zip_t, ArchiveCloser>;
using Entry = std::unique_ptr<zip_file_t, EntryCloser>;

Archive open_archive(const fs::path& fmu, const std::string& fmu_name) {
  std::error_code ec;
  if (!fs::is_regular_file(fmu, ec)) {
    throw IoError(fmt::format("FMU '{}': no such file", fmu_name));
  }
  int code = 0;
  zip_t* archive = zip_open(fmu.c_str(), ZIP_RDONLY, &code);
  if (archive == nullptr) {
    zip_error_t error;
    zip_error_init_with_code(&error, code);
    const std::string why = zip_error_strerror(&error);
    zip_error_fini(&error);
    throw IoError(fmt::format("FMU '{}': not a readable zip archive ({})", fmu_name, why));
  }
  return Archive(archive);
}

/// The entry's path below the directory; IoError for one that would leave it.
fs::path entry_path(const std::string& name, const std::string& fmu_name) {
  const fs::path relative = fs::path(name).lexically_normal();
  if (relative.is_absolute() || relative.empty() || *relative.begin() == "..") {
    throw IoError(
        fmt::format("FMU '{}': the archive entry '{}' lies outside the FMU", fmu_name, name));
  }
  return relative;
}

void write_entry(zip_t* archive, zip_uint64_t index, const fs::path& target,
                 const std::string& fmu_name) {
  Entry entry(zip_fopen_index(archive, index, 0));
  if (!entry) {
    throw IoError(fmt::format("FMU '{}': cannot read the archive entry '{}' ({})", fmu_name,
                              target.filename().string(), zip_strerror(archive)));
  }
  fs::create_directories(target.parent_path());
  std::ofstream out(target, std::ios::binary | std::ios::trunc);
  std::array<char, 1 << 16> buffer{};
  for (;;) {
    const zip_int64_t n = zip_fread(entry.get(), buffer.data(), buffer.size());
    if (n < 0) {
      throw IoError(fmt::format("FMU '{}': the archive entry '{}' is damaged ({})", fmu_name,
                                target.string(), zip_file_strerror(entry.get())));
    }
    if (n == 0) break;
    out.write(buffer.data(), static_cast<std::streamsize>(n));
  }
  if (!out) throw IoError(fmt::format("FMU '{}': cannot write '{}'", fmu_name, target.string()));
}

}  // namespace

UnpackDirectory UnpackDirectory::temporary(const std::string& fmu_name) {
  std::string pattern = (fs::temp_directory_path() / "hdae-fmu-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    throw IoError(fmt::format("FMU '{}': cannot make a temporary directory to unpack it ({})",
                              fmu_name, std::strerror(errno)));
  }
  return {fs::path(pattern), Lifetime::kRemoved};
}

UnpackDirectory UnpackDirectory::kept(const fs::path& path, const std::string& fmu_name) {
  std::error_code ec;
  if (fs::exists(path, ec) && !fs::is_empty(path, ec)) {
    throw IoError(
        fmt::format("FMU '{}': the unpack directory '{}' is not empty", fmu_name, path.string()));
  }
  fs::create_directories(path, ec);
  if (ec) {
    throw IoError(fmt::format("FMU '{}': cannot make the unpack directory '{}' ({})", fmu_name,
                              path.string(), ec.message()));
  }
  return {path, Lifetime::kKept};
}

UnpackDirectory::UnpackDirectory(UnpackDirectory&& other) noexcept
    : path_(std::move(other.path_)), lifetime_(other.lifetime_) {
  other.path_.clear();
}

UnpackDirectory::~UnpackDirectory() {
  if (lifetime_ == Lifetime::kKept || path_.empty()) return;
  std::error_code ignored;  // a destructor cannot report; what is left is in the temp directory
  fs::remove_all(path_, ignored);
}

void unpack(const fs::path& fmu, const fs::path& directory, const std::string& fmu_name) {
  const Archive archive = open_archive(fmu, fmu_name);
  const zip_int64_t count = zip_get_num_entries(archive.get(), 0);
  for (zip_int64_t i = 0; i < count; ++i) {
    const auto index = static_cast<zip_uint64_t>(i);
    const char* name = zip_get_name(archive.get(), index, 0);
    if (name == nullptr) continue;
    const std::string text = name;
    const fs::path target = directory / entry_path(text, fmu_name);
    if (text.ends_with('/')) {
      fs::create_directories(target);
    } else {
      write_entry(archive.get(), index, target, fmu_name);
    }
  }
}

}  // namespace hdae::fmi::detail
