// A Markdown table that the benchmark programs print and scripts/bench.sh pastes into
// docs/benchmarks.md, plus the number formats the tables use.
#pragma once

#include <string>
#include <vector>

namespace hdae::bench {

class MarkdownTable {
 public:
  explicit MarkdownTable(std::vector<std::string> headers);
  void add_row(std::vector<std::string> cells);
  [[nodiscard]] std::string str() const;

 private:
  std::vector<std::string> headers_;
  std::vector<std::vector<std::string>> rows_;
};

/// Seconds in a readable unit: "812 ns", "3.41 us", "12.3 ms", "1.52 s".
[[nodiscard]] std::string format_seconds(double s);
/// "1.03" (three significant digits).
[[nodiscard]] std::string format_ratio(double r);
/// Mebibytes from KiB: "12.4 MiB".
[[nodiscard]] std::string format_kib(long kib);

}  // namespace hdae::bench
