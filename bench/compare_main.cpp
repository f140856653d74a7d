// hdae-bench-compare: hdae-compare on wide result files (docs/benchmarks.md, "Comparing wide
// results"). Two identical CSV files of N columns and R rows are written to the temp
// directory; a fresh child process each then
//   - reads both with read_csv,
//   - reads both and runs compare_results (default options),
//   - runs the whole program in-process (run_compare: reading, comparison, the checks for
//     non-finite values and the printed report, sent to a discarding stream),
// and reports wall time, CPU time (user + system: the machine is shared) and peak RSS.
// Every value is a one-digit number, so the files are as small as such a table gets.
//
// Usage: hdae-bench-compare [--smoke]
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <ostream>
#include <streambuf>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "compare/compare_cli.hpp"
#include "hdae/compare.hpp"
#include "hdae/csv.hpp"
#include "support/arguments.hpp"
#include "support/child_process.hpp"
#include "support/markdown.hpp"
#include "support/timing.hpp"

namespace hdae::bench {
namespace {

struct Size {
  std::size_t columns = 0;
  std::size_t rows = 0;
};

struct Figures {
  double wall_s = 0.0;
  double cpu_s = 0.0;
  int exit_code = 0;
};

double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec);
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

/// time, c0 .. c{N-1}; row i holds i * 0.01 and the digit i % 10 in every column.
void write_wide_csv(const std::filesystem::path& file, const Size& size) {
  std::ofstream out(file, std::ios::binary);
  std::string line = "time";
  for (std::size_t j = 0; j < size.columns; ++j) line += fmt::format(",c{}", j);
  out << line << '\n';
  for (std::size_t i = 0; i < size.rows; ++i) {
    const char digit = static_cast<char>('0' + i % 10);
    line = fmt::format("{:g}", 0.01 * static_cast<double>(i));
    for (std::size_t j = 0; j < size.columns; ++j) {
      line += ',';
      line += digit;
    }
    out << line << '\n';
  }
  if (!out) throw std::runtime_error(fmt::format("{}: write failed", file.string()));
}

/// A stream that discards what it is given: the printed report of 10^5 signals.
class NullBuffer : public std::streambuf {
 protected:
  int_type overflow(int_type c) override { return c; }
  std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

ChildResult<Figures> measure(const std::function<int()>& work) {
  return measure_in_child<Figures>([&work] {
    Figures f;
    const double cpu0 = cpu_seconds();
    const Clock::time_point t0 = Clock::now();
    f.exit_code = work();
    f.wall_s = seconds_between(t0, Clock::now());
    f.cpu_s = cpu_seconds() - cpu0;
    return f;
  });
}

int run(const Arguments& args) {
  const bool smoke = args.has("--smoke");
  const std::vector<Size> sizes =
      smoke ? std::vector<Size>{{1000, 3}, {1000, 100}}
            : std::vector<Size>{{10000, 3}, {40000, 3}, {100000, 3}, {10000, 1000}, {100000, 1000}};
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / fmt::format("hdae-bench-compare-{}", ::getpid());
  std::filesystem::create_directories(dir);
  const std::filesystem::path reference = dir / "reference.csv";
  const std::filesystem::path result = dir / "result.csv";

  MarkdownTable table({"columns x rows", "file size", "step", "wall time", "CPU time", "peak RSS"});
  int status = 0;
  for (const Size& size : sizes) {
    write_wide_csv(reference, size);
    std::filesystem::copy_file(reference, result,
                               std::filesystem::copy_options::overwrite_existing);
    const std::string shape = fmt::format("{} x {}", size.columns, size.rows);
    const auto file_kib = static_cast<double>(std::filesystem::file_size(reference)) / 1024.0;
    const std::string bytes = file_kib < 1024.0 ? fmt::format("{:.1f} KiB", file_kib)
                                                : fmt::format("{:.1f} MiB", file_kib / 1024.0);
    const auto add = [&](const std::string& step, const ChildResult<Figures>& c) {
      table.add_row({shape, bytes, step, format_seconds(c.value.wall_s),
                     format_seconds(c.value.cpu_s), format_kib(c.max_rss_kib)});
      if (c.value.exit_code != 0) status = 1;
    };
    add("read_csv, both files", measure([&] {
          const ResultTable a = read_csv(reference);
          const ResultTable b = read_csv(result);
          return a.num_columns() == size.columns && b.num_rows() == size.rows ? 0 : 1;
        }));
    add("read_csv and compare_results", measure([&] {
          const ResultTable a = read_csv(reference);
          const ResultTable b = read_csv(result);
          return compare_results(a, b, CompareOptions{}).agree ? 0 : 1;
        }));
    add("hdae-compare reference.csv result.csv", measure([&] {
          NullBuffer discard;
          std::ostream out(&discard);
          const std::vector<std::string> argv = {reference.string(), result.string()};
          return compare::run_compare(argv, out, std::cerr, compare::PlotEnvironment{});
        }));
  }
  std::filesystem::remove_all(dir);
  fmt::print(
      "#### Two identical files, one-digit values (a child process per step; CPU time is user "
      "+ system)\n\n{}\n",
      table.str());
  return status;
}

}  // namespace
}  // namespace hdae::bench

int main(int argc, char** argv) {
  return hdae::bench::run_main("hdae-bench-compare", argc, argv, hdae::bench::run);
}
