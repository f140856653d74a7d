// libFuzzer target for the comparison of two result files, built and run by scripts/fuzz.sh.
// The input holds the reference CSV, then a line "%%result%%", then the result CSV (without
// that line, the one text is compared with itself). Both are read with read_csv (an IoError
// ends the input: malformed files are the reader fuzzer's business) and compared with
// default options, then the reports are written and a failing signal traced, as hdae-compare
// does. Any exception, sanitizer report, hang or broken property is a finding:
//   - an agreement has no problem and no failing signal;
//   - every compared signal is a column of both tables.
#include <sys/mman.h>
#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

#include "hdae/compare.hpp"
#include "hdae/csv.hpp"
#include "hdae/errors.hpp"
#include "memory_file.hpp"

namespace {

constexpr std::string_view kSeparator = "\n%%result%%\n";

[[noreturn]] void finding(const char* what) {
  std::fprintf(stderr, "compare_fuzzer: %s\n", what);
  std::abort();
}

bool all_finite(const hdae::ResultTable& table, std::size_t column) {
  for (std::size_t i = 0; i < table.num_rows(); ++i) {
    if (!std::isfinite(table.value(i, column))) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static MemoryFile reference_file("compare_fuzzer_reference");
  static MemoryFile result_file("compare_fuzzer_result");
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t split = input.find(kSeparator);
  const std::string_view reference_text = input.substr(0, split);
  const std::string_view result_text =
      split == std::string_view::npos ? input : input.substr(split + kSeparator.size());
  reference_file.assign(reference_text);
  result_file.assign(result_text);

  hdae::ResultTable reference;
  hdae::ResultTable result;
  try {
    reference = hdae::read_csv(reference_file.path());
    result = hdae::read_csv(result_file.path());
  } catch (const hdae::IoError&) {
    return 0;
  }

  const hdae::CompareOptions options;
  const hdae::CompareReport report = hdae::compare_results(reference, result, options);
  if (report.agree && (!report.problems.empty() || report.failed_signals() > 0)) {
    finding("an agreement with problems or failing signals");
  }
  for (const hdae::SignalComparison& s : report.signals) {
    try {
      static_cast<void>(reference.column_index(s.name));
      static_cast<void>(result.column_index(s.name));
    } catch (const std::out_of_range&) {
      finding("a compared signal is not a column of both tables");
    }
  }
  static_cast<void>(report.full_report());
  static_cast<void>(report.markdown_report());

  // hdae-compare traces the failing signals whose values are all finite (it stops with an
  // error at a non-finite value before it writes a report directory).
  for (const hdae::SignalComparison& s : report.signals) {
    if (s.points_outside == 0) continue;
    if (!all_finite(reference, reference.column_index(s.name)) ||
        !all_finite(result, result.column_index(s.name))) {
      continue;
    }
    const hdae::SignalTrace trace = hdae::trace_signal(reference, result, options, s.name);
    if (trace.time.size() != trace.result.size() || trace.time.size() != trace.outside.size()) {
      finding("a trace whose columns differ in length");
    }
    break;  // one trace per input keeps the run fast
  }
  return 0;
}
