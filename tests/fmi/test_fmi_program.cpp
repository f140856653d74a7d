// `hdae run <file>.fmu` in-process (tools/hdae/fmu_command.cpp): the FMU runs with its
// DefaultExperiment, --set reaches its parameters and inputs, the result files are written,
// and an FMU that cannot be loaded is an exit status 2 with the reason.
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "hdae/csv.hpp"
#include "hdae/hdae_program.hpp"
#include "results/temp_dir.hpp"
#include "test_fmus.hpp"

using namespace hdae;

namespace {

struct Output {
  int status = -1;
  std::string out;
  std::string err;
};

Output hdae_run(const std::vector<std::string>& args) {
  std::ostringstream out;
  std::ostringstream err;
  const examples::ProgramEnvironment env{out, err, nullptr};
  Output o;
  o.status = cli::run_hdae(args, env);
  o.out = out.str();
  o.err = err.str();
  return o;
}

}  // namespace

TEST_CASE("hdae run decay.fmu with --set runs to the FMU's stop time and writes its result") {
  const test::TempDir dir;
  const std::string csv = (dir.path() / "decay.csv").string();
  const Output o = hdae_run({"run", test::test_fmu("decay").string(), "--set", "k=2", "--set",
                             "u=3", "--rtol", "1e-10", csv});
  CAPTURE(o.err);
  REQUIRE(o.status == 0);
  const ResultTable r = read_csv(csv);
  // The DefaultExperiment's stopTime is 2 s; x = u/k + (1 - u/k) exp(-k t) there, and
  // rel_tol 1e-10 keeps the global error of the decaying exponential below 1e-8.
  CHECK(r.time(r.num_rows() - 1) == 2.0);
  CHECK(std::abs(r.final_value("x") - (1.5 - 0.5 * std::exp(-4.0))) < 1e-8);
  CHECK(std::filesystem::exists(dir.path() / "decay.units.csv"));
}

TEST_CASE("hdae run names an FMU it cannot load and exits with 2") {
  const Output o = hdae_run({"run", test::test_fmu("missing_binary").string()});
  CHECK(o.status == 2);
  CHECK(o.err ==
        "hdae run: FMU 'missing_binary.fmu' has no binary for this platform: "
        "binaries/x86_64-linux/bouncing_ball.so is missing (the FMU has binaries for: "
        "none)\n");
}
