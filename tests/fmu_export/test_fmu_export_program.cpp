// `hdae fmu export` run in-process (tools/hdae/fmu_export_command.cpp): a command line it
// cannot follow is an exit status 2 with a message naming the problem, and nothing written.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "exported_fmu.hpp"
#include "hdae/hdae_program.hpp"
#include "results/temp_dir.hpp"

using namespace hdae;

namespace {

struct Output {
  int status = -1;
  std::string err;
};

Output hdae_fmu(std::vector<std::string> args) {
  setenv("HDAE_FMU_RUNTIME", test::fmu_runtime().c_str(), 1);
  args.insert(args.begin(), {"fmu", "export"});
  std::ostringstream out;
  std::ostringstream err;
  Output o;
  o.status = cli::run_hdae(args, {out, err, nullptr});
  o.err = err.str();
  return o;
}

}  // namespace

TEST_CASE("hdae fmu export exits with 2 naming an unknown model and listing the models") {
  const test::TempDir dir;
  const Output o = hdae_fmu({"no_such_model", "-o", dir.file("x.fmu").string()});
  CHECK(o.status == 2);
  CHECK(o.err.find("no_such_model") != std::string::npos);
  CHECK(o.err.find("bouncing_ball") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir.file("x.fmu")));
}

TEST_CASE("hdae fmu export exits with 2 naming an unknown parameter or a bad value") {
  const test::TempDir dir;
  const std::string fmu = dir.file("x.fmu").string();
  Output o = hdae_fmu({"bouncing_ball", "-o", fmu, "--set", "zz=1"});
  CHECK(o.status == 2);
  CHECK(o.err.find("zz") != std::string::npos);
  o = hdae_fmu({"bouncing_ball", "-o", fmu, "--set", "e=abc"});
  CHECK(o.status == 2);
  CHECK(o.err.find("parameter 'e' is not a number: 'abc'") != std::string::npos);
  o = hdae_fmu({"bouncing_ball", "-o", fmu, "--set", "e=2"});  // e lies in [0, 1]
  CHECK(o.status == 2);
  CHECK(o.err.find("'e'") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(fmu));
}

TEST_CASE("hdae fmu export exits with 2 naming an output it cannot write") {
  const test::TempDir dir;
  const std::string missing = (dir.path() / "no_folder" / "x.fmu").string();
  Output o = hdae_fmu({"bouncing_ball", "-o", missing});
  CHECK(o.status == 2);
  CHECK(o.err.find(missing) != std::string::npos);
  o = hdae_fmu({"bouncing_ball", "-o", dir.file("x.zip").string()});
  CHECK(o.status == 2);
  CHECK(o.err.find("does not end in .fmu") != std::string::npos);
  o = hdae_fmu({"bouncing_ball"});
  CHECK(o.status == 2);
  CHECK(o.err.find("-o <file>.fmu") != std::string::npos);
}

TEST_CASE("hdae fmu export exits with 2 naming a runtime that is no shared library") {
  // An FMU whose binary's libraries cannot be listed would load nowhere: refused, nothing
  // written.
  const test::TempDir dir;
  const std::filesystem::path fake = dir.file("libhdae_fmu_runtime.so");
  { std::ofstream(fake) << "not a library\n"; }
  setenv("HDAE_FMU_RUNTIME", fake.c_str(), 1);
  const std::string fmu = dir.file("x.fmu").string();
  std::ostringstream out;
  std::ostringstream err;
  const int status =
      cli::run_hdae({"fmu", "export", "bouncing_ball", "-o", fmu}, {out, err, nullptr});
  setenv("HDAE_FMU_RUNTIME", test::fmu_runtime().c_str(), 1);
  CHECK(status == 2);
  CHECK(err.str().find("ldd cannot list the libraries of the FMU runtime '" + fake.string()) !=
        std::string::npos);
  CHECK_FALSE(std::filesystem::exists(fmu));
}
