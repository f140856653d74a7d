#include "support/arguments.hpp"

#include <exception>
#include <iostream>
#include <sstream>
#include <stdexcept>

namespace hdae::bench {

Arguments::Arguments(int argc, char** argv) : args_(argv + 1, argv + argc) {}

bool Arguments::has(std::string_view flag) const {
  for (const std::string& a : args_) {
    if (a == flag) return true;
  }
  return false;
}

std::string Arguments::value(std::string_view key, std::string fallback) const {
  for (std::size_t i = 0; i + 1 < args_.size(); ++i) {
    if (args_[i] == key) return args_[i + 1];
  }
  return fallback;
}

double Arguments::number(std::string_view key, double fallback) const {
  const std::string v = value(key, "");
  if (v.empty()) return fallback;
  try {
    return std::stod(v);
  } catch (const std::exception&) {
    throw std::invalid_argument(std::string(key) + " needs a number, got '" + v + "'");
  }
}

std::vector<std::size_t> Arguments::sizes(std::string_view key,
                                          std::vector<std::size_t> fallback) const {
  const std::string v = value(key, "");
  if (v.empty()) return fallback;
  std::vector<std::size_t> out;
  std::stringstream in(v);
  std::string item;
  while (std::getline(in, item, ',')) out.push_back(std::stoul(item));
  return out;
}

int run_main(const char* program, int argc, char** argv, int (*run)(const Arguments&)) {
  try {
    return run(Arguments(argc, argv));
  } catch (const std::exception& e) {
    std::cerr << program << ": " << e.what() << '\n';
    return 2;
  }
}

}  // namespace hdae::bench
