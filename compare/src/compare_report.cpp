// Reports of a comparison for people (compare.hpp): a brief verdict, a table per signal as
// plain text and as Markdown.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "hdae/compare.hpp"
#include "name_list.hpp"

namespace hdae {
namespace {

/// Event tables are cut after this many rows.
constexpr std::size_t kMaxListedEvents = 50;

std::string num(double v) { return fmt::format("{:.4g}", v); }

/// The cells of one signal's row, shared by the text and the Markdown table.
std::vector<std::string> signal_cells(const SignalComparison& s) {
  const bool outside = s.points_outside > 0;
  const bool compared = s.note.empty();
  return {
      s.name,
      s.passed ? "pass" : "FAIL",
      compared ? num(s.delta_y) : "-",
      compared ? num(s.max_inside_deviation) : "-",
      compared && s.max_inside_deviation > 0.0 ? num(s.max_inside_deviation_t) : "-",
      outside ? num(s.max_outside) : "-",
      outside ? num(s.max_outside_t) : "-",
      s.first_failure_t ? num(*s.first_failure_t) : "-",
      compared ? fmt::format("{}/{}", s.points_outside, s.points_checked) : s.note,
  };
}

const std::vector<std::string>& signal_headings() {
  static const std::vector<std::string> kHeadings = {
      "signal",      "result", "delta_y",         "max |dev| inside", "at t",
      "max outside", "at t",   "first outside t", "outside/checked"};
  return kHeadings;
}

std::string text_table(const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> widths(rows.front().size(), 0);
  for (const auto& row : rows) {
    for (std::size_t j = 0; j < row.size(); ++j) widths[j] = std::max(widths[j], row[j].size());
  }
  std::string s;
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t j = 0; j < row.size(); ++j) {
      // The last column is free text; no padding after it.
      line += j + 1 == row.size() ? row[j] : fmt::format("{:<{}}  ", row[j], widths[j]);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    s += "  " + line + '\n';
  }
  return s;
}

std::string markdown_row(const std::vector<std::string>& cells) {
  std::string s = "|";
  for (const std::string& cell : cells) {
    // A '|' inside a name would split the cell.
    std::string escaped;
    for (const char c : cell) {
      if (c == '|') escaped += '\\';
      escaped += c;
    }
    s += " " + escaped + " |";
  }
  return s + '\n';
}

std::string events_phrase(const CompareReport& r) {
  if (r.reference_events == 0 && r.result_events == 0) return "no events";
  if (!r.events_aligned) {
    return fmt::format("events not paired (reference {}, result {}): one tube across events",
                       r.reference_events, r.result_events);
  }
  double largest = 0.0;
  for (const EventShift& e : r.event_shifts) largest = std::max(largest, std::abs(e.shift_s));
  return fmt::format("{} event{} paired, largest shift {:.3g} s", r.event_shifts.size(),
                     r.event_shifts.size() == 1 ? "" : "s", largest);
}

std::vector<std::vector<std::string>> event_rows(const CompareReport& r) {
  std::vector<std::vector<std::string>> rows = {{"#", "reference t", "result t", "shift s", ""}};
  for (std::size_t k = 0; k < r.event_shifts.size() && k < kMaxListedEvents; ++k) {
    const EventShift& e = r.event_shifts[k];
    rows.push_back({std::to_string(e.index + 1), fmt::format("{:.10g}", e.reference_t),
                    fmt::format("{:.10g}", e.result_t), num(e.shift_s),
                    e.within_tolerance ? "" : "beyond event_time_tol_s"});
  }
  return rows;
}

}  // namespace

std::size_t CompareReport::failed_signals() const {
  return static_cast<std::size_t>(
      std::count_if(signals.begin(), signals.end(), [](const auto& s) { return !s.passed; }));
}

std::string CompareReport::brief_report() const {
  std::string s;
  const std::size_t failed = failed_signals();
  if (agree) {
    s = fmt::format("agree: {} signal{} within the tube (delta_t = {:.3g} s, {})", signals.size(),
                    signals.size() == 1 ? "" : "s", delta_t, events_phrase(*this));
  } else {
    s = fmt::format("differ: {} of {} signal{} outside the tube", failed, signals.size(),
                    signals.size() == 1 ? "" : "s");
    if (!problems.empty()) {
      s += fmt::format(", {} problem{}", problems.size(), problems.size() == 1 ? "" : "s");
    }
  }
  // A warning qualifies the verdict (an "agree" that did not look at every reference signal),
  // so it is announced on the verdict line and stated right below it.
  if (!warnings.empty()) {
    s += fmt::format(", {} warning{}", warnings.size(), warnings.size() == 1 ? "" : "s");
  }
  s += '\n';
  for (const std::string& w : warnings) s += "  warning: " + w + '\n';
  std::size_t listed = 0;
  for (const SignalComparison& c : signals) {
    if (c.passed) continue;
    if (++listed > compare::kMaxListedNames) {
      s += fmt::format("  ... and {} more failing signals\n", failed - compare::kMaxListedNames);
      break;
    }
    if (!c.note.empty()) {
      s += fmt::format("  {}: {}\n", c.name, c.note);
    } else {
      s += fmt::format("  {}: outside from t = {}, by up to {} at t = {} (delta_y = {})\n", c.name,
                       num(*c.first_failure_t), num(c.max_outside), num(c.max_outside_t),
                       num(c.delta_y));
    }
  }
  for (const std::string& p : problems) s += "  problem: " + p + '\n';
  return s;
}

std::string CompareReport::full_report() const {
  std::string s = brief_report();
  s += fmt::format(
      "\nreference: {} rows, t = {} .. {}; result: {} rows\ntube: delta_t = {:.3g} s; {}\n",
      reference_rows, reference_start_s, reference_stop_s, result_rows, delta_t,
      events_phrase(*this));
  if (!signals.empty()) {
    std::vector<std::vector<std::string>> rows = {signal_headings()};
    for (const SignalComparison& c : signals) rows.push_back(signal_cells(c));
    s += '\n' + text_table(rows);
  }
  if (!event_shifts.empty()) {
    s += "\nevent pairs:\n" + text_table(event_rows(*this));
    if (event_shifts.size() > kMaxListedEvents) {
      s += fmt::format("  ... and {} more\n", event_shifts.size() - kMaxListedEvents);
    }
  }
  if (!only_in_reference.empty()) {
    s += fmt::format("\nonly in the reference (not compared): {}\n",
                     compare::name_list(only_in_reference));
  }
  if (!only_in_result.empty()) {
    s += fmt::format("only in the result (not compared): {}\n", compare::name_list(only_in_result));
  }
  return s;
}

std::string CompareReport::markdown_report() const {
  std::string s = fmt::format("**{}**\n\n", agree ? "agree" : "differ");
  s += "```\n" + brief_report() + "```\n\n";
  s += fmt::format(
      "- reference: {} rows, t = {} .. {}\n- result: {} rows\n- tube: delta_t = {:.3g} s\n- {}\n",
      reference_rows, reference_start_s, reference_stop_s, result_rows, delta_t,
      events_phrase(*this));
  if (!signals.empty()) {
    s += "\n## Signals\n\n" + markdown_row(signal_headings());
    s += markdown_row(std::vector<std::string>(signal_headings().size(), "---"));
    for (const SignalComparison& c : signals) s += markdown_row(signal_cells(c));
  }
  if (!event_shifts.empty()) {
    s += "\n## Event pairs\n\n";
    const auto rows = event_rows(*this);
    s += markdown_row(rows.front()) +
         markdown_row(std::vector<std::string>(rows.front().size(), "---"));
    for (std::size_t k = 1; k < rows.size(); ++k) s += markdown_row(rows[k]);
  }
  if (!problems.empty()) {
    s += "\n## Problems\n\n";
    for (const std::string& p : problems) s += "- " + p + '\n';
  }
  if (!only_in_reference.empty()) {
    s += "\nOnly in the reference (not compared): " + compare::name_list(only_in_reference) + "\n";
  }
  if (!only_in_result.empty()) {
    s += "\nOnly in the result (not compared): " + compare::name_list(only_in_result) + "\n";
  }
  return s;
}

}  // namespace hdae
