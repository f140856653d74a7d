#include "results/hdf5_support.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "hdae/errors.hpp"

namespace hdae::detail::hdf5 {
namespace {

/// HDF5 1.10 cannot close a file whose closing writes or truncation fail (a file-size limit
/// holds its temporary below the size the file has reached): the close leaves it half closed,
/// and HDF5's own clean-up at exit, which closes what is still open, then crashes the program.
/// Every file hdae opens it also closes (the Id handles); without that clean-up a failed close
/// costs nothing but the memory the process gives back at exit. Asked for when this library is
/// loaded, before anything opens HDF5; when another user of HDF5 in the process (h5py) started
/// it first, HDF5 refuses and keeps its clean-up.
const bool kNoCleanUpAtExit = [] {
  H5dont_atexit();
  return true;
}();

}  // namespace

Id& Id::operator=(Id&& other) noexcept {
  if (this != &other) {
    reset();
    id_ = other.release();
  }
  return *this;
}

hid_t Id::release() {
  const hid_t id = id_;
  id_ = -1;
  return id;
}

bool Id::reset() {
  if (id_ < 0) return true;
  const herr_t status = H5Idec_ref(id_);
  id_ = -1;
  return status >= 0;
}

QuietErrors::QuietErrors() {
  H5Eget_auto2(H5E_DEFAULT, &function_, &data_);
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

QuietErrors::~QuietErrors() { H5Eset_auto2(H5E_DEFAULT, function_, data_); }

namespace {

/// The description of the innermost entry of HDF5's error stack: where the failure was found,
/// usually the most specific reason ("unable to open file", "no space left on device").
herr_t take_innermost(unsigned n, const H5E_error2_t* entry, void* data) {
  if (n == 0 && entry->desc != nullptr) *static_cast<std::string*>(data) = entry->desc;
  return 0;
}

std::string hdf5_reason() {
  std::string reason;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, take_innermost, &reason);
  H5Eclear2(H5E_DEFAULT);
  // A failed system call is described with the time, descriptor, buffer and offsets over
  // several lines; the operating system's message is what tells the reader the cause.
  constexpr std::string_view kSystemMessage = "error message = '";
  if (const auto start = reason.find(kSystemMessage); start != std::string::npos) {
    const auto begin = start + kSystemMessage.size();
    if (const auto end = reason.find('\'', begin); end != std::string::npos) {
      return reason.substr(begin, end - begin);
    }
  }
  return reason;
}

}  // namespace

void fail(const std::filesystem::path& file, std::string_view what) {
  const std::string reason = hdf5_reason();
  throw IoError(reason.empty() ? fmt::format("{}: cannot {}", file.string(), what)
                               : fmt::format("{}: cannot {}: {}", file.string(), what, reason));
}

hid_t check(hid_t result, const std::filesystem::path& file, std::string_view what) {
  if (result < 0) fail(file, what);
  return result;
}

Id string_type(std::size_t width, const std::filesystem::path& file) {
  Id type(check(H5Tcopy(H5T_C_S1), file, "create a string type"));
  check(H5Tset_size(type.get(), std::max<std::size_t>(width, 1)), file, "create a string type");
  check(H5Tset_strpad(type.get(), H5T_STR_NULLPAD), file, "create a string type");
  check(H5Tset_cset(type.get(), H5T_CSET_UTF8), file, "create a string type");
  return type;
}

namespace {

void write_dataset(hid_t location, const char* name, hid_t file_type, hid_t memory_type,
                   std::size_t size, const void* data, const std::filesystem::path& file) {
  const std::string what = fmt::format("write dataset '{}'", name);
  const hsize_t dims[1] = {size};
  const Id space(check(H5Screate_simple(1, dims, nullptr), file, what));
  const Id dataset(check(
      H5Dcreate2(location, name, file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
      file, what));
  if (size > 0) {
    check(H5Dwrite(dataset.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), file, what);
  }
}

}  // namespace

void write_doubles(hid_t location, const char* name, std::span<const double> values,
                   const std::filesystem::path& file) {
  write_dataset(location, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, values.size(), values.data(),
                file);
}

void write_integers(hid_t location, const char* name, std::span<const std::int64_t> values,
                    const std::filesystem::path& file) {
  write_dataset(location, name, H5T_STD_I64LE, H5T_NATIVE_INT64, values.size(), values.data(),
                file);
}

void write_strings(hid_t location, const char* name, const std::vector<std::string>& values,
                   const std::filesystem::path& file) {
  std::size_t width = 1;
  for (const std::string& v : values) width = std::max(width, v.size());
  std::vector<char> packed(values.size() * width, '\0');
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::copy(values[i].begin(), values[i].end(),
              packed.begin() + static_cast<std::ptrdiff_t>(i * width));
  }
  const Id type = string_type(width, file);
  write_dataset(location, name, type.get(), type.get(), values.size(), packed.data(), file);
}

void write_attribute(hid_t object, const char* name, std::string_view value,
                     const std::filesystem::path& file) {
  const std::string what = fmt::format("write attribute '{}'", name);
  const Id type = string_type(value.size(), file);
  const Id space(check(H5Screate(H5S_SCALAR), file, what));
  const Id attribute(check(
      H5Acreate2(object, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), file, what));
  std::string text(value);
  text.resize(std::max<std::size_t>(text.size(), 1), '\0');
  check(H5Awrite(attribute.get(), type.get(), text.data()), file, what);
}

void write_attribute(hid_t object, const char* name, double value,
                     const std::filesystem::path& file) {
  const std::string what = fmt::format("write attribute '{}'", name);
  const Id space(check(H5Screate(H5S_SCALAR), file, what));
  const Id attribute(check(
      H5Acreate2(object, name, H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT), file, what));
  check(H5Awrite(attribute.get(), H5T_NATIVE_DOUBLE, &value), file, what);
}

Id create_group(hid_t location, const char* name, const std::filesystem::path& file) {
  return Id(check(H5Gcreate2(location, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), file,
                  fmt::format("create group '{}'", name)));
}

Id open_group(hid_t location, const char* name, const std::filesystem::path& file) {
  if (!has_link(location, name)) {
    throw IoError(fmt::format("{}: no group '{}' (not an hdae result file?)", file.string(), name));
  }
  return Id(
      check(H5Gopen2(location, name, H5P_DEFAULT), file, fmt::format("open group '{}'", name)));
}

bool has_link(hid_t location, const char* name) {
  return H5Lexists(location, name, H5P_DEFAULT) > 0;
}

std::vector<hsize_t> dimensions(hid_t dataset, const std::filesystem::path& file) {
  const Id space(check(H5Dget_space(dataset), file, "read a dataspace"));
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 0) fail(file, "read a dataspace");
  std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
  if (rank > 0) H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
  return dims;
}

namespace {

/// At most this many bytes of data per byte stored, for a dataset whose chunks pass through
/// filters: deflate, the strongest of HDF5's own, stays below about 1030.
constexpr double kMaxFilterExpansion = 1100.0;

}  // namespace

void check_storage(hid_t dataset, const std::vector<hsize_t>& dims, std::string_view where,
                   const std::filesystem::path& file) {
  const Id type(check(H5Dget_type(dataset), file, "read a datatype"));
  double elements = 1.0;  // in double: the claimed dimensions' product may exceed 2^64
  for (const hsize_t d : dims) elements *= static_cast<double>(d);
  const double claimed = elements * static_cast<double>(H5Tget_size(type.get()));
  if (claimed == 0.0) return;
  const double stored = static_cast<double>(H5Dget_storage_size(dataset));
  const Id properties(check(H5Dget_create_plist(dataset), file, "read a dataset's properties"));
  const bool filtered = H5Pget_nfilters(properties.get()) > 0;
  if (stored * (filtered ? kMaxFilterExpansion : 1.0) < claimed) {
    throw IoError(
        fmt::format("{}: dataset '{}' claims {} entries ({} bytes) but the file stores "
                    "{} bytes of it (a damaged or truncated file?)",
                    file.string(), where, elements, claimed, stored));
  }
}

namespace {

/// Opens a one-dimensional dataset whose type is of this class; its length in size, its
/// type in type.
Id open_vector(hid_t location, const char* name, H5T_class_t type_class, std::string_view where,
               const std::filesystem::path& file, std::size_t& size, Id& type) {
  if (!has_link(location, name)) {
    throw IoError(
        fmt::format("{}: no dataset '{}' (not an hdae result file?)", file.string(), where));
  }
  Id dataset(
      check(H5Dopen2(location, name, H5P_DEFAULT), file, fmt::format("open dataset '{}'", where)));
  const std::vector<hsize_t> dims = dimensions(dataset.get(), file);
  type = Id(check(H5Dget_type(dataset.get()), file, "read a datatype"));
  if (dims.size() != 1 || H5Tget_class(type.get()) != type_class) {
    const char* wanted = type_class == H5T_FLOAT     ? "floating-point numbers"
                         : type_class == H5T_INTEGER ? "integers"
                                                     : "strings";
    throw IoError(fmt::format("{}: dataset '{}' is not a one-dimensional array of {}",
                              file.string(), where, wanted));
  }
  size = static_cast<std::size_t>(dims[0]);
  check_storage(dataset.get(), dims, where, file);
  return dataset;
}

/// A one-dimensional dataset of numbers of this class, converted to memory_type by HDF5.
template <typename Number>
std::vector<Number> read_numbers(hid_t location, const char* name, H5T_class_t type_class,
                                 hid_t memory_type, std::string_view where,
                                 const std::filesystem::path& file) {
  std::size_t size = 0;
  Id type;
  const Id dataset = open_vector(location, name, type_class, where, file, size, type);
  std::vector<Number> values(size);
  if (size > 0) {
    check(H5Dread(dataset.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), file,
          fmt::format("read dataset '{}'", where));
  }
  return values;
}

/// The text of a fixed-length string of `width` bytes: up to its first NUL (null-terminated
/// and null-padded strings), without trailing blanks (space-padded ones).
std::string fixed_text(const char* bytes, std::size_t width, hid_t type) {
  std::string text(bytes, std::find(bytes, bytes + width, '\0'));
  if (H5Tget_strpad(type) == H5T_STR_SPACEPAD) {
    text.erase(text.find_last_not_of(' ') + 1);
  }
  return text;
}

/// Strings of variable length are refused, whatever the file says of its version: reading
/// them goes through HDF5's global heap, which trusts the addresses it finds, and a damaged
/// file could crash or hang the reader there. Format version 1 stored its strings so.
[[noreturn]] void refuse_variable_strings(std::string_view where,
                                          const std::filesystem::path& file) {
  throw IoError(
      fmt::format("{}: '{}' holds strings of variable length, which hdae does not read "
                  "(format version 1 stored them so; a later file is damaged)",
                  file.string(), where));
}

}  // namespace

std::vector<double> read_doubles(hid_t location, const char* name, std::string_view where,
                                 const std::filesystem::path& file) {
  return read_numbers<double>(location, name, H5T_FLOAT, H5T_NATIVE_DOUBLE, where, file);
}

std::vector<std::int64_t> read_integers(hid_t location, const char* name, std::string_view where,
                                        const std::filesystem::path& file) {
  return read_numbers<std::int64_t>(location, name, H5T_INTEGER, H5T_NATIVE_INT64, where, file);
}

std::vector<std::string> read_strings(hid_t location, const char* name, std::string_view where,
                                      const std::filesystem::path& file) {
  std::size_t size = 0;
  Id type;
  const Id dataset = open_vector(location, name, H5T_STRING, where, file, size, type);
  if (size == 0) return {};
  if (H5Tis_variable_str(type.get()) > 0) refuse_variable_strings(where, file);
  // Read as stored: the bytes of each string, `width` apart.
  const std::size_t width = H5Tget_size(type.get());
  std::vector<char> packed(size * width);
  check(H5Dread(dataset.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, packed.data()), file,
        fmt::format("read dataset '{}'", where));
  std::vector<std::string> values;
  values.reserve(size);
  for (std::size_t i = 0; i < size; ++i) {
    values.push_back(fixed_text(packed.data() + i * width, width, type.get()));
  }
  return values;
}

std::optional<std::string> read_string_attribute(hid_t object, const char* name,
                                                 const std::filesystem::path& file) {
  if (H5Aexists(object, name) <= 0) return std::nullopt;
  const std::string what = fmt::format("read attribute '{}'", name);
  const Id attribute(check(H5Aopen(object, name, H5P_DEFAULT), file, what));
  const Id stored(check(H5Aget_type(attribute.get()), file, what));
  if (H5Tget_class(stored.get()) != H5T_STRING) return std::nullopt;
  if (H5Tis_variable_str(stored.get()) > 0) refuse_variable_strings(name, file);
  const std::size_t width = H5Tget_size(stored.get());
  if (width == 0 || width > H5Aget_storage_size(attribute.get())) {
    throw IoError(fmt::format("{}: attribute '{}' claims {} bytes but stores {} (a damaged file?)",
                              file.string(), name, width, H5Aget_storage_size(attribute.get())));
  }
  std::vector<char> bytes(width);
  check(H5Aread(attribute.get(), stored.get(), bytes.data()), file, what);
  return fixed_text(bytes.data(), width, stored.get());
}

std::optional<double> read_double_attribute(hid_t object, const char* name,
                                            const std::filesystem::path& file) {
  if (H5Aexists(object, name) <= 0) return std::nullopt;
  const std::string what = fmt::format("read attribute '{}'", name);
  const Id attribute(check(H5Aopen(object, name, H5P_DEFAULT), file, what));
  const Id stored(check(H5Aget_type(attribute.get()), file, what));
  if (H5Tget_class(stored.get()) != H5T_FLOAT) return std::nullopt;
  double value = 0.0;
  check(H5Aread(attribute.get(), H5T_NATIVE_DOUBLE, &value), file, what);
  return value;
}

}  // namespace hdae::detail::hdf5
