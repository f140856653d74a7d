// The .fmu file itself (fmu_export/): a zip archive written with libzip, the same library the
// importer (fmi/src/archive.cpp) unpacks FMUs with.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace hdae::fmu_export {

/// One file of the archive: its path inside (with '/'), and either its text or a file on
/// disk to copy.
struct ArchiveEntry {
  std::string name;
  std::string text;
  std::filesystem::path file;  ///< when not empty, the entry's content
};

/// Writes the archive to output, replacing it. libzip writes a temporary file beside it and
/// renames it at the end, so a failed export leaves the previous file. IoError naming output
/// (or the file to copy) when that fails.
void write_archive(const std::filesystem::path& output, const std::vector<ArchiveEntry>& entries);

}  // namespace hdae::fmu_export
