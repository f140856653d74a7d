// Reading result files back (hdae/stored_result.hpp, hdae/hdf5_result.hpp): HDF5 by its
// signature, CSV otherwise.
#include <cmath>
#include <fstream>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "hdae/csv.hpp"
#include "hdae/errors.hpp"
#include "hdae/hdf5_result.hpp"
#include "results/hdf5_support.hpp"
#include "results/hdf5_tables.hpp"
#include "results/regular_file.hpp"

namespace hdae {

using detail::hdf5::check;
using detail::hdf5::Id;

namespace {

/// Times must be finite and never decrease (equal times are the two limits of an event), as
/// read_csv demands of a CSV.
void check_times(const std::vector<double>& time, const std::filesystem::path& file) {
  for (std::size_t i = 0; i < time.size(); ++i) {
    if (!std::isfinite(time[i])) {
      throw IoError(fmt::format("{}: time[{}] = {} is not finite", file.string(), i, time[i]));
    }
    if (i > 0 && time[i] < time[i - 1]) {
      throw IoError(fmt::format("{}: time decreases from {} to {} at row {}", file.string(),
                                time[i - 1], time[i], i));
    }
  }
}

/// The rows of /values into a table of these columns and times.
ResultTable read_rows(hid_t file_id, std::vector<ColumnInfo> columns,
                      const std::vector<double>& time, const std::filesystem::path& file) {
  if (!detail::hdf5::has_link(file_id, "values")) {
    throw IoError(fmt::format("{}: no dataset 'values' (not an hdae result file?)", file.string()));
  }
  const Id values(check(H5Dopen2(file_id, "values", H5P_DEFAULT), file, "open dataset 'values'"));
  const std::vector<hsize_t> dims = detail::hdf5::dimensions(values.get(), file);
  if (dims.size() != 2 || dims[0] != time.size() || dims[1] != columns.size()) {
    throw IoError(fmt::format(
        "{}: dataset 'values' has dimensions [{}], expected [{}, {}] ({} rows of 'time', {} "
        "columns in 'columns/name')",
        file.string(), fmt::join(dims, ", "), time.size(), columns.size(), time.size(),
        columns.size()));
  }
  detail::hdf5::check_storage(values.get(), dims, "values", file);
  const std::size_t n = columns.size();
  std::vector<double> data(time.size() * n);
  if (!data.empty()) {
    check(H5Dread(values.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()),
          file, "read dataset 'values'");
  }
  ResultTable table(std::move(columns));
  table.reserve_rows(time.size());
  for (std::size_t i = 0; i < time.size(); ++i) {
    table.append(time[i], std::span<const double>(data).subspan(i * n, n));
  }
  return table;
}

}  // namespace

bool is_hdf5_file(const std::filesystem::path& file) {
  constexpr std::string_view kSignature = "\x89HDF\r\n\x1a\n";
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) return false;
  std::ifstream in(file, std::ios::binary);
  char start[8] = {};
  in.read(start, sizeof start);
  return in.gcount() == sizeof start && std::string_view(start, sizeof start) == kSignature;
}

StoredResult read_result_hdf5(const std::filesystem::path& file) {
  detail::require_regular_file(file);
  const detail::hdf5::QuietErrors quiet;
  const Id f(H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  if (!f.valid()) detail::hdf5::fail(file, "open it as an HDF5 file");
  std::vector<ColumnInfo> columns = detail::hdf5::read_columns(f.get(), file);
  const std::vector<double> time = detail::hdf5::read_doubles(f.get(), "time", "time", file);
  check_times(time, file);
  StoredResult result;
  result.table = read_rows(f.get(), std::move(columns), time, file);
  result.events = detail::hdf5::read_event_log(f.get(), file);
  result.parameters = detail::hdf5::read_parameters(f.get(), file);
  result.status = detail::hdf5::read_string_attribute(f.get(), "status", file);
  result.status_message =
      detail::hdf5::read_string_attribute(f.get(), "status_message", file).value_or("");
  return result;
}

StoredResult read_result(const std::filesystem::path& file) {
  if (is_hdf5_file(file)) return read_result_hdf5(file);
  StoredResult result;
  result.table = read_csv(file);
  return result;
}

}  // namespace hdae
