// libFuzzer target for read_csv (csv.hpp), built and run by scripts/fuzz.sh. For any input:
// read_csv either throws IoError or returns a table whose times are finite and
// non-decreasing; such a table survives a write_csv/read_csv round trip bit for bit; and
// compare_results finds a table of finite values in agreement with itself. Anything else
// (another exception, a sanitizer report, a broken property) aborts and is a finding.
#include <sys/mman.h>
#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>

#include "hdae/compare.hpp"
#include "hdae/csv.hpp"
#include "hdae/errors.hpp"
#include "memory_file.hpp"

namespace {

[[noreturn]] void finding(const char* what) {
  std::fprintf(stderr, "read_csv_fuzzer: %s\n", what);
  std::abort();
}

bool same_bits(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return std::memcmp(&a, &b, sizeof a) == 0;
}

void check_round_trip(const hdae::ResultTable& table, MemoryFile& file) {
  std::ostringstream out;
  hdae::write_csv(table, out);
  const std::string text = out.str();
  file.assign(text);
  const hdae::ResultTable back = hdae::read_csv(file.path());
  if (back.num_rows() != table.num_rows() || back.num_columns() != table.num_columns()) {
    finding("round trip changed the table's shape");
  }
  for (std::size_t j = 0; j < table.num_columns(); ++j) {
    if (back.columns()[j].name != table.columns()[j].name) finding("round trip changed a name");
  }
  for (std::size_t i = 0; i < table.num_rows(); ++i) {
    if (!same_bits(back.time(i), table.time(i))) finding("round trip changed a time");
    for (std::size_t j = 0; j < table.num_columns(); ++j) {
      if (!same_bits(back.value(i, j), table.value(i, j))) finding("round trip changed a value");
    }
  }
}

void check_self_comparison(const hdae::ResultTable& table) {
  if (table.num_rows() == 0 || table.num_columns() == 0) return;
  for (std::size_t i = 0; i < table.num_rows(); ++i) {
    for (const double v : table.row(i)) {
      if (!std::isfinite(v)) return;  // a NaN reference signal has no tube, by design
    }
  }
  const hdae::CompareReport report = hdae::compare_results(table, table, hdae::CompareOptions{});
  if (!report.agree) {
    std::fprintf(stderr, "%s", report.full_report().c_str());
    finding("a table does not agree with itself");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static MemoryFile file("read_csv_fuzzer");
  file.assign(std::string_view(reinterpret_cast<const char*>(data), size));
  hdae::ResultTable table;
  try {
    table = hdae::read_csv(file.path());
  } catch (const hdae::IoError&) {
    return 0;  // malformed input, reported as such
  }
  for (std::size_t i = 0; i < table.num_rows(); ++i) {
    if (!std::isfinite(table.time(i))) finding("a time is not finite");
    if (i > 0 && table.time(i) < table.time(i - 1)) finding("time decreases");
  }
  check_self_comparison(table);
  check_round_trip(table, file);
  return 0;
}
