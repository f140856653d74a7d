// Readers of result files open regular files only (read_csv, read_result_hdf5).
#pragma once

#include <filesystem>

namespace hdae::detail {

/// Throws IoError "<file>: ..." unless the path names a regular file (after symbolic links):
/// a directory reads as a read error, a FIFO without a writer blocks the reader for ever, a
/// device never ends. Checked before opening, which is what blocks on a FIFO.
void require_regular_file(const std::filesystem::path& file);

}  // namespace hdae::detail
