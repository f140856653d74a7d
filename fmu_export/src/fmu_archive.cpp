// Writing the .fmu archive with libzip (fmu_archive.hpp).
#include "fmu_archive.hpp"

#include <zip.h>

#include <set>

#include <fmt/format.h>

#include "hdae/errors.hpp"

namespace hdae::fmu_export {
namespace {

/// The folders above an entry ("binaries/", "binaries/x86_64-linux/"), which some importers
/// expect as entries of their own.
void add_folders(zip_t* archive, const std::string& name, std::set<std::string>& made) {
  for (std::size_t slash = name.find('/'); slash != std::string::npos;
       slash = name.find('/', slash + 1)) {
    const std::string folder = name.substr(0, slash + 1);
    if (made.insert(folder).second) zip_dir_add(archive, folder.c_str(), ZIP_FL_ENC_UTF_8);
  }
}

zip_source_t* source_of(zip_t* archive, const ArchiveEntry& e) {
  if (e.file.empty()) return zip_source_buffer(archive, e.text.data(), e.text.size(), 0);
  return zip_source_file(archive, e.file.c_str(), 0, -1);  // -1: to the end
}

}  // namespace

void write_archive(const std::filesystem::path& output, const std::vector<ArchiveEntry>& entries) {
  int code = 0;
  zip_t* archive = zip_open(output.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &code);
  if (archive == nullptr) {
    zip_error_t error;
    zip_error_init_with_code(&error, code);
    const std::string why = zip_error_strerror(&error);
    zip_error_fini(&error);
    throw IoError(fmt::format("cannot write the FMU '{}': {}", output.string(), why));
  }
  std::set<std::string> folders;
  for (const ArchiveEntry& e : entries) {
    add_folders(archive, e.name, folders);
    zip_source_t* source = source_of(archive, e);
    const zip_int64_t index = source == nullptr ? -1
                                                : zip_file_add(archive, e.name.c_str(), source,
                                                               ZIP_FL_OVERWRITE | ZIP_FL_ENC_UTF_8);
    if (index < 0) {
      const std::string why = zip_strerror(archive);
      if (source != nullptr) zip_source_free(source);
      zip_discard(archive);
      throw IoError(fmt::format("cannot add '{}' to the FMU '{}': {}",
                                e.file.empty() ? e.name : e.file.string(), output.string(), why));
    }
    // The fastest deflate: for the bouncing ball 20 MB instead of 17.5 MB at the default
    // level, in a tenth of the time (0.6 s instead of 6 s).
    zip_set_file_compression(archive, static_cast<zip_uint64_t>(index), ZIP_CM_DEFLATE, 1);
  }
  // The sources are read here: a file to copy that cannot be read fails now too.
  if (zip_close(archive) < 0) {
    const std::string why = zip_strerror(archive);
    zip_discard(archive);
    throw IoError(fmt::format("cannot write the FMU '{}': {}", output.string(), why));
  }
}

}  // namespace hdae::fmu_export
