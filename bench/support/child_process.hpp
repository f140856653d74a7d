// Peak memory of one measurement: the measurement runs in a forked child process, which
// sends its (trivially copyable) result back through a pipe; the parent reads the child's
// peak resident set size from wait4's rusage (ru_maxrss). A fresh child per size means one
// size's allocations never inflate the next size's figure.
#pragma once

#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace hdae::bench {

/// Peak resident set size of this process so far (VmHWM in /proc/self/status), KiB; 0 when
/// unavailable.
[[nodiscard]] long peak_rss_kib();
/// Resident set size of this process now (VmRSS), KiB; 0 when unavailable.
[[nodiscard]] long current_rss_kib();

struct ChildOutcome {
  std::vector<char> bytes;  ///< what the child wrote
  long max_rss_kib = 0;     ///< the child's ru_maxrss
};

/// Forks; the child runs body, writes the returned bytes to the parent and exits. Throws
/// std::runtime_error when the child fails (its exception text is passed on).
[[nodiscard]] ChildOutcome run_in_child(const std::function<std::vector<char>()>& body);

template <class T>
struct ChildResult {
  T value;
  long max_rss_kib = 0;
};

/// run_in_child for a trivially copyable result type.
template <class T>
[[nodiscard]] ChildResult<T> measure_in_child(const std::function<T()>& body) {
  static_assert(std::is_trivially_copyable_v<T>);
  const ChildOutcome out = run_in_child([&body] {
    const T value = body();
    std::vector<char> bytes(sizeof(T));
    std::memcpy(bytes.data(), &value, sizeof(T));
    return bytes;
  });
  if (out.bytes.size() != sizeof(T)) throw std::runtime_error("child returned a short result");
  ChildResult<T> result{};
  std::memcpy(&result.value, out.bytes.data(), sizeof(T));
  result.max_rss_kib = out.max_rss_kib;
  return result;
}

}  // namespace hdae::bench
