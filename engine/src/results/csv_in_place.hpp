// The CSV writers of csv.hpp without the atomic replacement (hdae/atomic_file.hpp): they write
// the path they are given, which write_result_files makes the temporary files of all three
// result files (and the parameters file) before renaming any of them.
#pragma once

#include <filesystem>
#include <span>
#include <vector>

#include "hdae/atomic_file.hpp"
#include "hdae/model.hpp"
#include "hdae/result.hpp"

namespace hdae::detail {

/// A file to write and the name messages give it: the target of a temporary file, which means
/// something to the user where the temporary name would not.
struct WritePath {
  std::filesystem::path open;
  std::filesystem::path shown;
};

[[nodiscard]] inline WritePath write_path_of(const AtomicFile& file) {
  return {file.path(), file.target()};
}

void write_csv_in_place(const ResultTable& table, const WritePath& file);
void write_units_csv_in_place(const ResultTable& table, const WritePath& file);
void write_params_csv_in_place(std::span<const ParameterInfo> parameters, const WritePath& file);
void write_event_log_csv_in_place(const std::vector<EventRecord>& events, const WritePath& file);

}  // namespace hdae::detail
