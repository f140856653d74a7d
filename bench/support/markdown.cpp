#include "support/markdown.hpp"

#include <cmath>

#include <fmt/format.h>

namespace hdae::bench {

MarkdownTable::MarkdownTable(std::vector<std::string> headers) : headers_(std::move(headers)) {}

void MarkdownTable::add_row(std::vector<std::string> cells) {
  cells.resize(headers_.size());
  rows_.push_back(std::move(cells));
}

std::string MarkdownTable::str() const {
  std::string s = "|";
  for (const std::string& h : headers_) s += fmt::format(" {} |", h);
  s += "\n|";
  for (std::size_t i = 0; i < headers_.size(); ++i) s += " --- |";
  s += "\n";
  for (const auto& row : rows_) {
    s += "|";
    for (const std::string& c : row) s += fmt::format(" {} |", c);
    s += "\n";
  }
  return s;
}

std::string format_seconds(double s) {
  if (!std::isfinite(s)) return "n/a";
  if (s < 1e-6) return fmt::format("{:.0f} ns", s * 1e9);
  if (s < 1e-3) return fmt::format("{:.3g} us", s * 1e6);
  if (s < 1.0) return fmt::format("{:.3g} ms", s * 1e3);
  return fmt::format("{:.3g} s", s);
}

std::string format_ratio(double r) { return std::isfinite(r) ? fmt::format("{:.3g}", r) : "n/a"; }

std::string format_kib(long kib) {
  return fmt::format("{:.1f} MiB", static_cast<double>(kib) / 1024.0);
}

}  // namespace hdae::bench
