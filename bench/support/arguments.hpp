// Command-line arguments of the benchmark programs: "--flag" and "--key value" pairs.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hdae::bench {

class Arguments {
 public:
  Arguments(int argc, char** argv);
  [[nodiscard]] bool has(std::string_view flag) const;
  [[nodiscard]] std::string value(std::string_view key, std::string fallback) const;
  [[nodiscard]] double number(std::string_view key, double fallback) const;
  /// Comma-separated list of sizes, e.g. "--masses 34,100,334".
  [[nodiscard]] std::vector<std::size_t> sizes(std::string_view key,
                                               std::vector<std::size_t> fallback) const;

 private:
  std::vector<std::string> args_;
};

/// A benchmark program's main: run(Arguments(argc, argv)), or exit status 2 with
/// "<program>: <what>" on standard error when anything throws.
int run_main(const char* program, int argc, char** argv, int (*run)(const Arguments&));

}  // namespace hdae::bench
