// The HDF5 C API in the shape result files need: identifiers closed by RAII, every call
// checked (a failure becomes an IoError naming the file, what was being done and HDF5's own
// reason), one-dimensional datasets of numbers and strings, and attributes.
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace hdae::detail::hdf5 {

/// An HDF5 identifier, closed (H5Idec_ref) when the last owner goes.
class Id {
 public:
  Id() = default;
  explicit Id(hid_t id) : id_(id) {}
  Id(Id&& other) noexcept : id_(other.release()) {}
  Id& operator=(Id&& other) noexcept;
  Id(const Id&) = delete;
  Id& operator=(const Id&) = delete;
  ~Id() { reset(); }

  [[nodiscard]] hid_t get() const { return id_; }
  [[nodiscard]] bool valid() const { return id_ >= 0; }
  hid_t release();
  /// Closes now; returns false when HDF5 reports a failure (a file that could not be
  /// written out).
  bool reset();

 private:
  hid_t id_ = -1;
};

/// Turns off HDF5's printing of its error stack for the lifetime of the object (errors are
/// reported as IoError instead) and puts the previous setting back afterwards.
class QuietErrors {
 public:
  QuietErrors();
  ~QuietErrors();
  QuietErrors(const QuietErrors&) = delete;
  QuietErrors& operator=(const QuietErrors&) = delete;

 private:
  H5E_auto2_t function_ = nullptr;
  void* data_ = nullptr;
};

/// Throws IoError "<file>: cannot <what>: <HDF5's innermost message>" for a negative result.
hid_t check(hid_t result, const std::filesystem::path& file, std::string_view what);
[[noreturn]] void fail(const std::filesystem::path& file, std::string_view what);

/// UTF-8 strings of `width` bytes, padded with NULs.
/// Result files store fixed-length strings: a reader copies them from the dataset's own data,
/// where variable-length ones would send it through HDF5's global heap, whose reading trusts
/// the addresses in the file (a damaged file could crash or hang it).
[[nodiscard]] Id string_type(std::size_t width, const std::filesystem::path& file);

// One-dimensional datasets under location (a file or a group), written whole.
void write_doubles(hid_t location, const char* name, std::span<const double> values,
                   const std::filesystem::path& file);
void write_integers(hid_t location, const char* name, std::span<const std::int64_t> values,
                    const std::filesystem::path& file);
void write_strings(hid_t location, const char* name, const std::vector<std::string>& values,
                   const std::filesystem::path& file);
void write_attribute(hid_t object, const char* name, std::string_view value,
                     const std::filesystem::path& file);
void write_attribute(hid_t object, const char* name, double value,
                     const std::filesystem::path& file);

/// A group under location.
[[nodiscard]] Id create_group(hid_t location, const char* name, const std::filesystem::path& file);
[[nodiscard]] Id open_group(hid_t location, const char* name, const std::filesystem::path& file);
[[nodiscard]] bool has_link(hid_t location, const char* name);

// Reading; a dataset that is missing, not one-dimensional (or of the wrong kind of type) is
// an IoError naming it by its path (where, e.g. "events/jumps/before").
[[nodiscard]] std::vector<double> read_doubles(hid_t location, const char* name,
                                               std::string_view where,
                                               const std::filesystem::path& file);
[[nodiscard]] std::vector<std::int64_t> read_integers(hid_t location, const char* name,
                                                      std::string_view where,
                                                      const std::filesystem::path& file);
[[nodiscard]] std::vector<std::string> read_strings(hid_t location, const char* name,
                                                    std::string_view where,
                                                    const std::filesystem::path& file);
[[nodiscard]] std::optional<std::string> read_string_attribute(hid_t object, const char* name,
                                                               const std::filesystem::path& file);
[[nodiscard]] std::optional<double> read_double_attribute(hid_t object, const char* name,
                                                          const std::filesystem::path& file);
/// Throws IoError when a dataset claims more elements than the file stores data for (with
/// filters, more than any filter expands to), before memory is allocated for them: a damaged
/// or crafted header may claim 2^40 rows in a file of 3 KB.
void check_storage(hid_t dataset, const std::vector<hsize_t>& dims, std::string_view where,
                   const std::filesystem::path& file);
/// The dimensions of a dataset's dataspace.
[[nodiscard]] std::vector<hsize_t> dimensions(hid_t dataset, const std::filesystem::path& file);

}  // namespace hdae::detail::hdf5
