// HDF5 result files that are damaged, crafted or written by an earlier version
// (hdae/hdf5_result.hpp): reading them gives a result or an IoError naming the file, never a
// crash, a hang or an allocation of what a header merely claims; writing to what cannot hold
// an HDF5 file is an IoError before HDF5 sees it.
#include <hdf5.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "hdae/errors.hpp"
#include "hdae/hdf5_result.hpp"
#include "hdae/models/ideal_clutch.hpp"
#include "hdae/simulator.hpp"
#include "results/hdf5_support.hpp"
#include "results/temp_dir.hpp"

using namespace hdae;
namespace h5 = hdae::detail::hdf5;

namespace {

/// UTF-8 strings of variable length, as format version 1 stored every string.
h5::Id variable_string_type() {
  h5::Id type(H5Tcopy(H5T_C_S1));
  REQUIRE(H5Tset_size(type.get(), H5T_VARIABLE) >= 0);
  REQUIRE(H5Tset_cset(type.get(), H5T_CSET_UTF8) >= 0);
  return type;
}

void write_variable_strings(hid_t location, const char* name,
                            const std::vector<const char*>& values) {
  const h5::Id type = variable_string_type();
  const hsize_t dims[1] = {values.size()};
  const h5::Id space(H5Screate_simple(1, dims, nullptr));
  const h5::Id dataset(
      H5Dcreate2(location, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  REQUIRE(H5Dwrite(dataset.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) >= 0);
}

void write_variable_attribute(hid_t object, const char* name, const char* value) {
  const h5::Id type = variable_string_type();
  const h5::Id space(H5Screate(H5S_SCALAR));
  const h5::Id attribute(
      H5Acreate2(object, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT));
  REQUIRE(H5Awrite(attribute.get(), type.get(), &value) >= 0);
}

/// HDF5 itself allocates what damaged metadata claims (up to 1 TB); AddressSanitizer aborts on
/// such a request where malloc returns null and HDF5 reports an error, so the damaged-byte
/// sweep is skipped (and reported skipped) there.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kUnderAddressSanitizer = true;
#else
constexpr bool kUnderAddressSanitizer = false;
#endif

/// Which bytes of the file hold the chunks of /time and /values (most of a short result file:
/// a chunk is allocated whole).
std::vector<bool> chunk_bytes(const std::filesystem::path& file, std::size_t size) {
  std::vector<bool> in_chunk(size, false);
  const h5::Id f(H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  for (const char* name : {"time", "values"}) {
    const h5::Id dataset(H5Dopen2(f.get(), name, H5P_DEFAULT));
    const h5::Id space(H5Dget_space(dataset.get()));
    hsize_t chunks = 0;
    REQUIRE(H5Dget_num_chunks(dataset.get(), space.get(), &chunks) >= 0);
    for (hsize_t c = 0; c < chunks; ++c) {
      haddr_t address = 0;
      hsize_t bytes = 0;
      REQUIRE(H5Dget_chunk_info(dataset.get(), space.get(), c, nullptr, nullptr, &address,
                                &bytes) >= 0);
      for (hsize_t b = address; b < address + bytes && b < size; ++b) in_chunk[b] = true;
    }
  }
  return in_chunk;
}

}  // namespace

TEST_CASE("a result file of format version 1, with strings of variable length, is refused") {
  const test::TempDir dir;
  const auto file = dir.file("v1.h5");
  {
    const h5::Id f(H5Fcreate(file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
    write_variable_attribute(f.get(), "format", "hdae-result");
    h5::write_attribute(f.get(), "format_version", 1.0, file);
    write_variable_attribute(f.get(), "status", "reached stop time");
    const h5::Id columns = h5::create_group(f.get(), "columns", file);
    write_variable_strings(columns.get(), "name", {"x", "der(x)"});
    write_variable_strings(columns.get(), "unit", {"m", "m/s"});
    write_variable_strings(columns.get(), "kind", {"state", "derivative"});
    const std::vector<double> time = {0.0, 1.0};
    h5::write_doubles(f.get(), "time", time, file);
    const hsize_t dims[2] = {2, 2};
    const std::vector<double> values = {1.0, -1.0, 0.5, -0.5};
    const h5::Id space(H5Screate_simple(2, dims, nullptr));
    const h5::Id dataset(H5Dcreate2(f.get(), "values", H5T_IEEE_F64LE, space.get(), H5P_DEFAULT,
                                    H5P_DEFAULT, H5P_DEFAULT));
    REQUIRE(H5Dwrite(dataset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                     values.data()) >= 0);
  }
  // Refused, not read: reading variable-length strings goes through HDF5's global heap, where
  // a damaged file could crash the reader.
  CHECK_THROWS_WITH_AS(
      (void)read_result(file),
      (file.string() + ": 'columns/name' holds strings of variable length, which hdae does not "
                       "read (format version 1 stored them so; a later file is damaged)")
          .c_str(),
      IoError);
}

TEST_CASE("a dataset claiming more entries than the file stores is refused before allocating") {
  const test::TempDir dir;
  const auto file = dir.file("claims.h5");
  constexpr hsize_t kClaimed = hsize_t{1} << 40;  // 8 TiB of float64 in a file of a few KB
  {
    const h5::Id f(H5Fcreate(file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
    const h5::Id columns = h5::create_group(f.get(), "columns", file);
    h5::write_strings(columns.get(), "name", {"x"}, file);
    h5::write_strings(columns.get(), "unit", {""}, file);
    h5::write_strings(columns.get(), "kind", {"state"}, file);
    // Chunked and never written: the extent costs the file nothing.
    const hsize_t dims[1] = {kClaimed};
    const hsize_t chunk[1] = {1024};
    const h5::Id space(H5Screate_simple(1, dims, nullptr));
    const h5::Id properties(H5Pcreate(H5P_DATASET_CREATE));
    REQUIRE(H5Pset_chunk(properties.get(), 1, chunk) >= 0);
    const h5::Id time(H5Dcreate2(f.get(), "time", H5T_IEEE_F64LE, space.get(), H5P_DEFAULT,
                                 properties.get(), H5P_DEFAULT));
    REQUIRE(time.valid());
  }
  CHECK(std::filesystem::file_size(file) < 100000);
  CHECK_THROWS_WITH_AS(
      (void)read_result(file),
      (file.string() + ": dataset 'time' claims 1099511627776 entries (8796093022208 bytes) but "
                       "the file stores 0 bytes of it (a damaged or truncated file?)")
          .c_str(),
      IoError);
}

TEST_CASE("a damaged byte anywhere in a result file's headers reads as a result or an IoError" *
          doctest::skip(kUnderAddressSanitizer)) {
  // A result with strings in every table (columns, events, crossings' directions, jumps'
  // variables, status). Byte after byte outside the rows' chunks is inverted; the read
  // either succeeds (the byte was in other numbers or in padding) or throws IoError. A crash, a
  // hang (the test's time limit) or another exception fails the test.
  const test::TempDir dir;
  SimulationOptions o;
  o.stop_s = 400.0;
  o.output_interval_s = 100.0;
  models::IdealClutch model;
  const SimulationResult run = simulate(model, o);
  REQUIRE(run.status.ok());
  const auto original = dir.file("clutch.h5");
  write_result_hdf5(run, original);
  REQUIRE(read_result(original).status == "reached stop time");
  const std::string bytes = dir.read("clutch.h5");
  const std::vector<bool> numbers = chunk_bytes(original, bytes.size());
  int read_back = 0;
  int refused = 0;
  // Every other byte: a field's bytes lie side by side, so each field is still hit, at half
  // the reads.
  for (std::size_t i = 0; i < bytes.size(); i += 2) {
    if (numbers[i]) continue;  // the rows' chunks: damage there changes numbers only
    std::string damaged = bytes;
    damaged[i] = static_cast<char>(~damaged[i]);
    const auto file = dir.write("damaged.h5", damaged);
    try {
      (void)read_result(file);
      ++read_back;
    } catch (const IoError&) {
      ++refused;
    }
  }
  // Both happen: damaged headers are refused, damaged numbers read back.
  CHECK(refused > 0);
  CHECK(read_back > 0);
}

TEST_CASE("an HDF5 result to a device other than /dev/null is an IoError naming the file") {
  if (!std::filesystem::exists("/dev/full")) return;
  SimulationResult r;
  r.table = ResultTable({{"x", "m", ColumnKind::kState}});
  CHECK_THROWS_WITH_AS(write_result_hdf5(r, "/dev/full"),
                       "/dev/full: an HDF5 result needs a regular file (or /dev/null to discard "
                       "it), not a device or pipe",
                       IoError);
  CHECK_NOTHROW(write_result_hdf5(r, "/dev/null"));
}
