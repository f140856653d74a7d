// Where the FMUs of the tests lie (built from tests/fmi/fmus/ into the build tree), and the
// hdae program run on them in the tests' process.
#pragma once

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "hdae/hdae_program.hpp"

namespace hdae::test {

/// <build>/tests/fmi/fmus/<name>.fmu
inline std::filesystem::path test_fmu(const std::string& name) {
  return std::filesystem::path(HDAE_TEST_FMU_DIR) / (name + ".fmu");
}

/// `hdae <args>` in this process: its exit status, its standard error into err.
inline int hdae_run(const std::vector<std::string>& args, std::string& err) {
  std::ostringstream out;
  std::ostringstream errors;
  const int status = cli::run_hdae(args, {out, errors, nullptr});
  err = errors.str();
  return status;
}

/// The stair FMU's x (stair/model.c): der(x) = u, u stepping up by 1 at t = 1, 2, 3, ..., so
/// x(t) is the sum of (t - j) over the steps j <= t.
inline double stair_x(double t) {
  double x = 0.0;
  for (double j = 1.0; j <= t; j += 1.0) x += t - j;
  return x;
}

}  // namespace hdae::test
