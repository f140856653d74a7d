#include "support/child_process.hpp"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <exception>
#include <fstream>
#include <string>

namespace hdae::bench {
namespace {

void write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t written = ::write(fd, data, size);
    if (written <= 0) return;
    data += written;
    size -= static_cast<std::size_t>(written);
  }
}

/// The figure of /proc/self/status after `wanted` ("VmHWM:"), KiB; 0 when absent.
long status_kib(const std::string& wanted) {
  std::ifstream status("/proc/self/status");
  std::string key;
  while (status >> key) {
    if (key == wanted) {
      long kib = 0;
      status >> kib;
      return kib;
    }
    status.ignore(1 << 12, '\n');
  }
  return 0;
}

}  // namespace

long peak_rss_kib() { return status_kib("VmHWM:"); }

long current_rss_kib() { return status_kib("VmRSS:"); }

ChildOutcome run_in_child(const std::function<std::vector<char>()>& body) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error("pipe failed");
  std::fflush(nullptr);  // so buffered output is not written twice
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    ::close(fds[0]);
    // First byte: 1 = result follows, 0 = error text follows.
    try {
      const std::vector<char> bytes = body();
      const char ok = 1;
      write_all(fds[1], &ok, 1);
      write_all(fds[1], bytes.data(), bytes.size());
      ::close(fds[1]);
      ::_exit(0);
    } catch (const std::exception& e) {
      const char failed = 0;
      write_all(fds[1], &failed, 1);
      write_all(fds[1], e.what(), std::char_traits<char>::length(e.what()));
      ::close(fds[1]);
      ::_exit(1);
    }
  }
  ::close(fds[1]);
  std::vector<char> received;
  char buffer[4096];
  for (;;) {
    const ssize_t got = ::read(fds[0], buffer, sizeof buffer);
    if (got <= 0) break;
    received.insert(received.end(), buffer, buffer + got);
  }
  ::close(fds[0]);
  int status = 0;
  struct rusage usage {};
  ::wait4(pid, &status, 0, &usage);
  if (received.empty() || received[0] != 1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    const std::string text = received.size() > 1 ? std::string(received.begin() + 1, received.end())
                                                 : std::string("no result");
    throw std::runtime_error("benchmark child process failed: " + text);
  }
  return {std::vector<char>(received.begin() + 1, received.end()), usage.ru_maxrss};
}

}  // namespace hdae::bench
