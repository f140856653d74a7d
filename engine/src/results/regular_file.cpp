#include "results/regular_file.hpp"

#include <string_view>
#include <system_error>

#include <fmt/format.h>

#include "hdae/errors.hpp"

namespace hdae::detail {

void require_regular_file(const std::filesystem::path& file) {
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(file, ec);
  using Type = std::filesystem::file_type;
  const auto not_regular = [&](std::string_view what) {
    return IoError(fmt::format("{}: is {}, not a regular file", file.string(), what));
  };
  switch (status.type()) {
    case Type::regular:
    case Type::none:
      // none: status() failed otherwise (e.g. no permission on a directory on the way), and
      // opening the file says so.
      return;
    case Type::not_found:
      throw IoError(fmt::format("{}: no such file", file.string()));
    case Type::directory:
      throw IoError(fmt::format("{}: is a directory", file.string()));
    case Type::fifo:
      throw not_regular("a FIFO (named pipe)");
    case Type::character:
      throw not_regular("a character device");
    case Type::block:
      throw not_regular("a block device");
    case Type::socket:
      throw not_regular("a socket");
    default:
      throw IoError(fmt::format("{}: is not a regular file", file.string()));
  }
}

}  // namespace hdae::detail
