// Result files are replaced atomically (hdae/atomic_file.hpp): a writer killed with SIGKILL in
// the middle of writing leaves the previous result whole; a complete write replaces it.
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "hdae/atomic_file.hpp"
#include "hdae/csv.hpp"
#include "hdae/errors.hpp"
#include "hdae/hdf5_result.hpp"
#include "hdae/models/mass_spring_chain.hpp"
#include "hdae/simulator.hpp"
#include "results/temp_dir.hpp"

using namespace hdae;

namespace {

/// The temporary files in dir (names starting with '.').
std::vector<std::filesystem::path> temporaries(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> found;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().filename().string().starts_with(".")) found.push_back(entry.path());
  }
  return found;
}

/// Runs work in a child process and kills it with SIGKILL as soon as a temporary file in dir
/// holds more than min_bytes, i.e. in the middle of writing; returns whether it was killed
/// there (false: the child ended first or nothing appeared within 60 s).
template <typename Work>
bool kill_while_writing(const std::filesystem::path& dir, std::uintmax_t min_bytes, Work work) {
  const pid_t child = ::fork();
  if (child == 0) {
    try {
      work();
    } catch (...) {
      ::_exit(1);
    }
    ::_exit(0);
  }
  REQUIRE(child > 0);
  bool killed = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!killed && std::chrono::steady_clock::now() < deadline) {
    for (const auto& t : temporaries(dir)) {
      std::error_code ec;
      if (std::filesystem::file_size(t, ec) > min_bytes && !ec) {
        ::kill(child, SIGKILL);
        killed = true;
        break;
      }
    }
    int status = 0;
    if (!killed && ::waitpid(child, &status, WNOHANG) == child) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  if (!killed) ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  return killed && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
}

/// A table of rows x columns with values that make a large CSV quickly.
ResultTable big_table(std::size_t rows, std::size_t columns) {
  std::vector<ColumnInfo> info;
  for (std::size_t c = 0; c < columns; ++c)
    info.push_back({fmt::format("x{}", c), "m", ColumnKind::kState});
  ResultTable table(info);
  std::vector<double> row(columns);
  for (std::size_t i = 0; i < rows; ++i) {
    for (std::size_t c = 0; c < columns; ++c) row[c] = 1.0 / static_cast<double>(3 + i + c);
    table.append(static_cast<double>(i), row);
  }
  return table;
}

}  // namespace

TEST_CASE("an atomic file replaces its target on commit only, and leaves no temporary") {
  const test::TempDir dir;
  const auto target = dir.write("r.csv", "old\n");
  {
    AtomicFile file(target);
    CHECK(file.replaces());
    CHECK(file.path().parent_path() == dir.path());
    CHECK(file.path() != target);
    dir.write(file.path().filename().string(), "new\n");
    CHECK(dir.read("r.csv") == "old\n");  // not before commit
  }  // dropped without commit: the target stays, the temporary goes
  CHECK(dir.read("r.csv") == "old\n");
  CHECK(temporaries(dir.path()).empty());
  write_atomically(
      target, [&](const std::filesystem::path& p) { dir.write(p.filename().string(), "new\n"); });
  CHECK(dir.read("r.csv") == "new\n");
  CHECK(temporaries(dir.path()).empty());
}

TEST_CASE("an atomic file writes a device directly and replaces the file behind a link") {
  AtomicFile device("/dev/null");
  CHECK_FALSE(device.replaces());
  CHECK(device.path() == "/dev/null");
  const test::TempDir dir;
  dir.write("real.csv", "old\n");
  std::filesystem::create_symlink(dir.file("real.csv"), dir.file("link.csv"));
  write_atomically(dir.file("link.csv"), [&](const std::filesystem::path& p) {
    dir.write(p.filename().string(), "new\n");
  });
  CHECK(std::filesystem::is_symlink(dir.file("link.csv")));
  CHECK(dir.read("real.csv") == "new\n");
}

TEST_CASE("a writer killed with SIGKILL while writing result files leaves the previous ones") {
  const test::TempDir dir;
  const auto csv = dir.file("run.csv");
  SimulationResult previous;
  previous.table = big_table(3, 2);
  write_result_files(previous, csv);
  const std::string table = dir.read("run.csv");
  const std::string units = dir.read("run.units.csv");
  const std::string events = dir.read("run.events.csv");

  SimulationResult next;
  next.table = big_table(4000, 500);  // about 40 MB of CSV: writing takes a while
  REQUIRE(kill_while_writing(dir.path(), 1 << 20, [&] { write_result_files(next, csv); }));
  CHECK(dir.read("run.csv") == table);
  CHECK(dir.read("run.units.csv") == units);
  CHECK(dir.read("run.events.csv") == events);
  // What the kill left: the temporaries, never the targets.
  CHECK_FALSE(temporaries(dir.path()).empty());
}

TEST_CASE("a run killed while streaming its CSV or HDF5 file leaves the previous file") {
  const test::TempDir dir;
  const auto csv = dir.file("chain.csv");
  const auto h5 = dir.file("chain.h5");
  const std::string before = "time,x\n0,1\n";
  dir.write("chain.csv", before);
  SimulationResult tiny;
  tiny.table = big_table(2, 1);
  write_result_hdf5(tiny, h5);
  const std::string h5_before = dir.read("chain.h5");
  // The chain of 10^4 masses runs for seconds; its rows stream to both files.
  const auto run = [&] {
    models::MassSpringChain model(models::MassSpringChainParameters{.masses = 10000});
    SimulationOptions o;
    o.stop_s = 10.0;
    o.sinks = {SinkSpec::csv(csv), SinkSpec::hdf5(h5)};
    Simulator sim(model, o);
    sim.advance_to(o.stop_s);
  };
  REQUIRE(kill_while_writing(dir.path(), 1 << 20, run));
  CHECK(dir.read("chain.csv") == before);
  CHECK(dir.read("chain.h5") == h5_before);
}

TEST_CASE("a result set named near the file system's longest name is written whole") {
  // NAME_MAX is 255 bytes on the usual file systems: a result set named with 244 bytes before
  // ".csv" has side files of up to 255 bytes ("<stem>.params.csv"), whose temporaries
  // (".<name>.tmp-<pid>-<n>") are cut to fit, here at a character of two bytes in UTF-8.
  const test::TempDir dir;
  const auto target = dir.path() / (std::string(244, 'r') + ".csv");
  std::string accents;
  for (int k = 0; k < 122; ++k) accents += "\xc3\xa9";  // e acute, two bytes in UTF-8
  const auto wide = dir.path() / (accents + ".csv");
  models::MassSpringChain model(models::MassSpringChainParameters{.masses = 2});
  SimulationOptions o;
  o.stop_s = 0.1;
  const SimulationResult r = simulate(model, o);
  REQUIRE(r.status.ok());
  for (const auto& file : {target, wide}) {
    CAPTURE(file.filename().string().size());
    const ResultFiles written = write_result_files(r, file, model.structure().parameters);
    CHECK(std::filesystem::exists(written.params));
    CHECK(written.params.filename().string().size() <= 255);
    CHECK(read_csv(file).num_rows() == r.table.num_rows());
  }
  CHECK(temporaries(dir.path()).empty());
  // The cut falls between characters: each lead byte keeps its continuation byte.
  const AtomicFile file(dir.path() / (accents + ".params.csv"));
  const std::string temporary = file.path().filename().string();
  CHECK(temporary.size() <= 255);
  for (std::size_t i = 0; i < temporary.size(); ++i) {
    if (static_cast<unsigned char>(temporary[i]) != 0xC3) continue;
    CHECK((i + 1 < temporary.size() && static_cast<unsigned char>(temporary[i + 1]) == 0xA9));
  }
}

TEST_CASE("a result written to an empty path is refused, and nothing is created") {
  models::MassSpringChain model(models::MassSpringChainParameters{.masses = 2});
  SimulationOptions o;
  o.stop_s = 0.1;
  const SimulationResult r = simulate(model, o);
  REQUIRE(r.status.ok());
  const auto before = temporaries(std::filesystem::current_path()).size();
  CHECK_THROWS_WITH_AS(static_cast<void>(write_result_files(r, "")),
                       "the result file's path must not be empty", IoError);
  CHECK_THROWS_WITH_AS(write_csv(r.table, std::filesystem::path()),
                       "the result file's path must not be empty", IoError);
  CHECK(temporaries(std::filesystem::current_path()).size() == before);
}

TEST_CASE("a result set is renamed into place under a lock of its directory") {
  // Two runs writing the same set p.csv (with units, event log and parameters) at once must
  // leave all of one run's files: each renames its set under an exclusive flock(2) of the
  // directory. Here the test holds that lock: a writer in another process completes its files
  // but renames none of them until the lock is released.
  const test::TempDir dir;
  const auto target = dir.path() / "p.csv";
  models::MassSpringChain model(models::MassSpringChainParameters{.masses = 2});
  SimulationOptions o;
  o.stop_s = 0.1;
  const SimulationResult r = simulate(model, o);
  REQUIRE(r.status.ok());
  const int directory = open(dir.path().c_str(), O_RDONLY | O_DIRECTORY);
  REQUIRE(directory >= 0);
  REQUIRE(flock(directory, LOCK_EX) == 0);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    close(directory);  // its copy would hold the lock for the writer too
    try {
      static_cast<void>(write_result_files(r, target, model.structure().parameters));
    } catch (...) {
      _exit(1);
    }
    _exit(0);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  CHECK_FALSE(std::filesystem::exists(target));
  CHECK_FALSE(std::filesystem::exists(dir.path() / "p.units.csv"));
  CHECK(temporaries(dir.path()).size() == 4);  // written, waiting to be renamed
  close(directory);                            // releases the lock
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
  CHECK(read_csv(target).num_rows() == r.table.num_rows());
  CHECK(std::filesystem::exists(dir.path() / "p.params.csv"));
  CHECK(temporaries(dir.path()).empty());
}
