// An in-memory file with a path, for the fuzzers: read_csv takes a path, and a memfd gives one
// without disk traffic per input. A system call that fails is a finding (abort).
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

class MemoryFile {
 public:
  explicit MemoryFile(const char* name) : name_(name), fd_(memfd_create(name, 0)) {
    if (fd_ < 0) fail("memfd_create failed");
    path_ = "/proc/self/fd/" + std::to_string(fd_);
  }
  void assign(std::string_view text) {
    if (ftruncate(fd_, 0) != 0) fail("ftruncate failed");
    std::size_t written = 0;
    while (written < text.size()) {
      const ssize_t n =
          pwrite(fd_, text.data() + written, text.size() - written, static_cast<off_t>(written));
      if (n <= 0) fail("pwrite failed");
      written += static_cast<std::size_t>(n);
    }
  }
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  [[noreturn]] void fail(const char* what) const {
    std::fprintf(stderr, "%s: %s\n", name_, what);
    std::abort();
  }

  const char* name_;
  int fd_;
  std::string path_;
};
