// The example programs in-process (examples/program/): the command line of every program
// (--help, --version, the options every example has, the parameters of some, errors with
// their exact messages and exit status 2), the run with its exit status and files, and
// failures wherever they happen ending in exit status 2 with a message instead of an escaping
// exception. tests/examples/hostile_input.sh runs the built programs the same way.
#include <atomic>
#include <filesystem>
#include <memory>
#include <new>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "hdae/csv.hpp"
#include "hdae/errors.hpp"
#include "hdae/model_builder.hpp"
#include "program/command_line.hpp"
#include "program/example_program.hpp"
#include "program/launcher.hpp"
#include "registry/registry.hpp"
#include "results/temp_dir.hpp"

using namespace hdae;
using namespace hdae::examples;

namespace {

/// What one in-process run of a program printed and returned.
struct ProgramRun {
  int status = -1;
  std::string out;
  std::string err;
};

ProgramRun run(const Example& example, const std::vector<std::string>& args,
               const std::atomic<bool>* cancel = nullptr) {
  std::ostringstream out;
  std::ostringstream err;
  ProgramRun o;
  o.status = run_example_program(example, program_name(example), args, {out, err, cancel});
  o.out = out.str();
  o.err = err.str();
  return o;
}

ProgramRun run(const std::string& name, const std::vector<std::string>& args) {
  const Example* example = find_example(name);
  REQUIRE(example != nullptr);
  return run(*example, args);
}

ProgramRun launch(const std::vector<std::string>& args) {
  std::ostringstream out;
  std::ostringstream err;
  ProgramRun o;
  o.status = run_launcher("hdae-example", args, {out, err, nullptr});
  o.out = out.str();
  o.err = err.str();
  return o;
}

/// IDA's step count from the summary a program printed ("steps 238, residuals ...").
long ida_steps(const std::string& out) {
  const std::size_t at = out.find("\nsteps ");
  REQUIRE(at != std::string::npos);
  return std::stol(out.substr(at + 7));
}

/// The invocation a command line asks for (REQUIREs that it asks for one).
Invocation parsed(const std::string& name, const std::vector<std::string>& args) {
  const Example* example = find_example(name);
  REQUIRE(example != nullptr);
  std::ostringstream out;
  std::ostringstream err;
  ParsedCommandLine p = parse_command_line(*example, program_name(*example), args, out, err);
  INFO(err.str());
  REQUIRE(p.invocation.has_value());
  return *p.invocation;
}

/// x' = -x from x = 1; evaluate() throws for t > 0.5, as a model whose table ends there.
class TableEnds final : public Model {
 public:
  TableEnds() : Model("table_ends") {
    x_ = declare_variable({.name = "x", .start = 1.0});
    eq_ = declare_equation("der(x) = -x");
  }
  void evaluate(Evaluation& e) override {
    if (e.t() > 0.5) throw std::runtime_error("table ends at t = 0.5");
    e.set(eq_, e.der(x_) + e.x(x_));
  }

 private:
  Var x_;
  Eq eq_;
};

/// An example around a model factory, run to 1 s.
Example synthetic(ModelFactory make_model) {
  Example e{.name = "synthetic", .description = "a test example"};
  e.make_model = std::move(make_model);
  e.options.stop_s = 1.0;
  e.key_numbers = [](const SimulationModel&, const SimulationResult&) { return "key numbers"; };
  return e;
}

}  // namespace

TEST_CASE("--help prints the usage with every option and runs nothing") {
  const test::TempDir dir;
  const ProgramRun o = run("mass_spring_chain", {"--help"});
  CHECK(o.status == 0);
  CHECK(o.err.empty());
  CHECK(o.out.starts_with(
      "A chain of N masses and springs (3N unknowns, sparse DAE) integrated with KLU\n"
      "Usage: hdae-mass-spring-chain [OPTIONS] [output] [N]\n"));
  for (const char* option :
       {"--version", "--stop S=10", "--rtol X=1e-06", "--output-interval S=0.1", "N INTEGER=2000",
        "output PATH=results/mass_spring_chain.csv", "Exit status: 0"}) {
    CAPTURE(option);
    CHECK(o.out.find(option) != std::string::npos);
  }
  // An example without an output interval of its own shows the library's default rule.
  CHECK(run("pendulum", {"-h"}).out.find("[default: (stop - start) / 500]") != std::string::npos);
}

TEST_CASE("--version prints the program's name and hdae's version and runs nothing") {
  const ProgramRun o = run("pendulum", {"--version"});
  CHECK(o.status == 0);
  CHECK(o.out == version_text("hdae-pendulum") + "\n");
  CHECK(o.out.starts_with("hdae-pendulum (hdae "));
}

TEST_CASE("an unknown option or an extra positional argument exits with 2 naming it") {
  ProgramRun o = run("pendulum", {"--frobnicate"});
  CHECK(o.status == 2);
  CHECK(o.out.empty());
  CHECK(o.err ==
        "hdae-pendulum: The following argument was not expected: --frobnicate\n"
        "Run 'hdae-pendulum --help' for the usage.\n");

  o = run("pendulum", {"a.csv", "b.csv"});
  CHECK(o.status == 2);
  CHECK(o.err ==
        "hdae-pendulum: The following argument was not expected: b.csv\n"
        "Run 'hdae-pendulum --help' for the usage.\n");

  // The chain takes one count after the output path, no more.
  o = run("mass_spring_chain", {"a.csv", "20", "30"});
  CHECK(o.status == 2);
  CHECK(o.err.starts_with("hdae-mass-spring-chain: The following argument was not expected: 30\n"));
}

TEST_CASE("an option value that is not a number, or missing, exits with 2 naming the option") {
  ProgramRun o = run("pendulum", {"--stop", "abc"});
  CHECK(o.status == 2);
  CHECK(o.err.starts_with("hdae-pendulum: Could not convert: --stop = abc\n"));
  o = run("pendulum", {"--rtol"});
  CHECK(o.status == 2);
  CHECK(o.err.starts_with("hdae-pendulum: --rtol: 1 required X missing\n"));
}

TEST_CASE("--stop, --rtol and --output-interval are validated by SimulationOptions::validate") {
  const struct {
    std::vector<std::string> args;
    std::string message;
  } cases[] = {
      {{"--stop=-1"}, "SimulationOptions::stop_s must be > start_s (0), got -1"},
      {{"--stop", "inf"}, "SimulationOptions::stop_s must be finite, got inf"},
      {{"--rtol", "0"}, "SimulationOptions::rel_tol must be in (0, 1), got 0"},
      {{"--rtol", "1"}, "SimulationOptions::rel_tol must be in (0, 1), got 1"},
      {{"--output-interval", "0"},
       "SimulationOptions::output_interval_s must be > 0 when set (unset selects (stop_s - "
       "start_s)/500), got 0"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.message);
    const ProgramRun o = run("bouncing_ball", c.args);
    CHECK(o.status == 2);
    CHECK(o.out.empty());
    CHECK(o.err == "hdae-bouncing-ball: " + c.message + "\n");
  }
}

TEST_CASE("--threads sets SimulationOptions::threads and a bad count exits with 2 naming it") {
  CHECK(parsed("mass_spring_chain", {}).options.threads == 1);  // the library's default
  CHECK(parsed("mass_spring_chain", {"--threads", "2"}).options.threads == 2);
  CHECK(run("mass_spring_chain", {"--help"}).out.find("--threads N=1") != std::string::npos);
  ProgramRun o = run("bouncing_ball", {"--threads", "-1"});
  CHECK(o.status == 2);
  CHECK(o.out.empty());
  CHECK(o.err ==
        "hdae-bouncing-ball: SimulationOptions::threads must be in [0, 256] (0 or 1: serial "
        "vectors; n > 1: OpenMP vectors with n threads), got -1\n");
  o = run("bouncing_ball", {"--threads", "two"});
  CHECK(o.status == 2);
  CHECK(o.err.starts_with("hdae-bouncing-ball: Could not convert: --threads = two\n"));
  // A whole run with two threads: the chain of 30 masses to its end (exit status 0).
  const test::TempDir dir;
  o = run("mass_spring_chain", {dir.file("chain.csv").string(), "30", "--threads", "2"});
  CHECK(o.status == 0);
  CHECK(std::filesystem::exists(dir.file("chain.csv")));
}

TEST_CASE("--restart-step sets SimulationOptions::restart_step by its value's name") {
  CHECK(parsed("bouncing_ball", {}).options.restart_step == RestartStep::kIdaEstimate);
  CHECK(parsed("bouncing_ball", {"--restart-step", "from-history"}).options.restart_step ==
        RestartStep::kFromHistory);
  CHECK(parsed("bouncing_ball", {"--restart-step=ida-estimate"}).options.restart_step ==
        RestartStep::kIdaEstimate);
  CHECK(parsed("bouncing_ball", {"--restart-step", "keep-order"}).options.restart_step ==
        RestartStep::kKeepOrder);
  CHECK(run("bouncing_ball", {"--help"}).out.find("--restart-step WHICH") != std::string::npos);
  const ProgramRun o = run("bouncing_ball", {"--restart-step", "previous"});
  CHECK(o.status == 2);
  CHECK(o.out.empty());
  CHECK(
      o.err.starts_with("hdae-bouncing-ball: --restart-step: must be ida-estimate, "
                        "from-history or keep-order, got 'previous'\n"));
}

TEST_CASE("--max-order, --initial-step and --max-step set IDA's controls, validated by name") {
  const Invocation defaults = parsed("bouncing_ball", {});
  CHECK(defaults.options.max_order == 5);
  CHECK(defaults.options.initial_step_s == 0.0);
  CHECK(defaults.options.max_step_s == 0.0);
  const Invocation set =
      parsed("bouncing_ball", {"--max-order", "2", "--initial-step", "1e-6", "--max-step=0.01"});
  CHECK(set.options.max_order == 2);
  CHECK(set.options.initial_step_s == 1e-6);
  CHECK(set.options.max_step_s == 0.01);
  const std::string help = run("bouncing_ball", {"--help"}).out;
  CHECK(help.find("--max-order K=5") != std::string::npos);
  CHECK(help.find("--initial-step S=0") != std::string::npos);
  const struct {
    std::vector<std::string> args;
    std::string message;
  } cases[] = {
      {{"--max-order", "6"}, "SimulationOptions::max_order must be in [1, 5], got 6"},
      {{"--initial-step", "-1e-3"},
       "SimulationOptions::initial_step_s must be >= 0 (0: IDA's own estimate), got -0.001"},
      {{"--max-step", "-1"}, "SimulationOptions::max_step_s must be >= 0 (0: no limit), got -1"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.message);
    const ProgramRun o = run("bouncing_ball", c.args);
    CHECK(o.status == 2);
    CHECK(o.err == "hdae-bouncing-ball: " + c.message + "\n");
  }
  // Order 1 is backward Euler, whose local error h^2/2 y'' lets the step grow only as
  // tol^(1/2), against tol^(1/6) at order 5: at the example's rel_tol 1e-8 that is hundreds of
  // times the steps (65847 against 238 for this second). The factor 3 asks only that the
  // order reached IDA, not for that ratio.
  const test::TempDir dir;
  const ProgramRun order5 = run("pendulum", {dir.file("a.csv").string(), "--stop", "1"});
  const ProgramRun order1 =
      run("pendulum", {dir.file("b.csv").string(), "--stop", "1", "--max-order", "1"});
  CHECK(order5.status == 0);
  CHECK(order1.status == 0);
  CHECK(ida_steps(order1.out) > 3 * ida_steps(order5.out));
}

TEST_CASE("--output-times replaces the example's grid with rows at the listed times") {
  const Invocation listed = parsed("simple_state_events", {"--output-times", "0.5,1,2.5"});
  CHECK(listed.options.output_times == std::vector<double>{0.5, 1.0, 2.5});
  CHECK_FALSE(listed.options.output_interval_s.has_value());
  CHECK(parsed("simple_state_events", {}).options.output_times.empty());
  ProgramRun o = run("simple_state_events", {"--output-times", "1,0.5"});
  CHECK(o.status == 2);
  CHECK(o.err ==
        "hdae-simple-state-events: SimulationOptions::output_times[1] must be > "
        "output_times[0] = 1 (sorted, no repeats), got 0.5\n");
  o = run("simple_state_events", {"--output-times", "1", "--output-interval", "0.1"});
  CHECK(o.status == 2);
  CHECK(
      o.err.starts_with("hdae-simple-state-events: SimulationOptions::output_times and "
                        "output_interval_s are both set"));
  o = run("simple_state_events", {"--output-times", "1,x"});
  CHECK(o.status == 2);
  CHECK(o.err.find("--output-times") != std::string::npos);
  // A run without events after t0: rows at t0, at the listed times and at the stop time, and
  // none of the example's grid.
  const test::TempDir dir;
  o = run("pendulum", {dir.file("r.csv").string(), "--stop", "3", "--output-times", "0.5,1,2.5"});
  REQUIRE(o.status == 0);
  const ResultTable table = read_csv(dir.file("r.csv"));
  std::vector<double> times;
  for (std::size_t r = 0; r < table.num_rows(); ++r) times.push_back(table.time(r));
  CHECK(times == std::vector<double>{0.0, 0.5, 1.0, 2.5, 3.0});
}

TEST_CASE("the options of the command line replace the example's and the rest stay") {
  const Invocation defaults = parsed("simple_state_events", {});
  CHECK(defaults.output == std::filesystem::path("results/simple_state_events.csv"));
  CHECK(defaults.options.stop_s == 10.0);
  CHECK(defaults.options.rel_tol == 1e-8);
  CHECK(defaults.options.output_interval_s == 0.1);

  const Invocation changed =
      parsed("simple_state_events",
             {"out/run.csv", "--stop", "2.5", "--rtol=1e-5", "--output-interval", "0.05"});
  CHECK(changed.output == std::filesystem::path("out/run.csv"));
  CHECK(changed.options.stop_s == 2.5);
  CHECK(changed.options.rel_tol == 1e-5);
  CHECK(changed.options.output_interval_s == 0.05);
  CHECK(changed.options.linear_solver == defaults.options.linear_solver);
  CHECK(changed.options.start_s == defaults.options.start_s);
}

TEST_CASE("the chain's N is the positional argument after the output path, a positive integer") {
  CHECK(parsed("mass_spring_chain", {}).parameters.count("N") == 2000);
  CHECK(parsed("mass_spring_chain", {"out.csv", "20"}).parameters.count("N") == 20);
  CHECK(parsed("mass_spring_chain", {"out.csv", "4000000000"}).parameters.count("N") ==
        4000000000u);

  const struct {
    std::string arg;
    std::string message;
  } cases[] = {
      {"0", "N: must be a positive integer, got '0'"},
      {"twenty", "N: must be a positive integer, got 'twenty'"},
      {"2.5", "N: must be a positive integer, got '2.5'"},
      {"99999999999999999999999", "N: '99999999999999999999999' is too large"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.arg);
    const ProgramRun o = run("mass_spring_chain", {"out.csv", c.arg});
    CHECK(o.status == 2);
    CHECK(o.err == "hdae-mass-spring-chain: " + c.message +
                       "\nRun 'hdae-mass-spring-chain --help' for the usage.\n");
  }
}

TEST_CASE("the DAE pendulum's --fixed is a flag, after the output path or before it") {
  CHECK_FALSE(parsed("pendulum_dae", {"out.csv"}).parameters.flag("fixed"));
  CHECK(parsed("pendulum_dae", {"out.csv", "--fixed"}).parameters.flag("fixed"));
  CHECK(parsed("pendulum_dae", {"--fixed", "out.csv"}).parameters.flag("fixed"));
  // A flag the example does not declare is an unknown option.
  CHECK(run("pendulum", {"out.csv", "--fixed"}).status == 2);
}

TEST_CASE("a run that reaches its stop time writes its files, prints its summary and exits 0") {
  const test::TempDir dir;
  const std::filesystem::path csv = dir.file("sub/pendulum.csv");
  const ProgramRun o =
      run("pendulum", {csv.string(), "--stop", "0.5", "--output-interval", "0.25"});
  CHECK(o.status == 0);
  CHECK(o.err.empty());
  CHECK(o.out.starts_with("status: reached stop time at t = 0.5\nrows: 3, events: 1\n"));
  // The key numbers are taken at the end of the run, which --stop moved.
  CHECK(o.out.find("\nphi(0.5) = ") != std::string::npos);
  CHECK(o.out.ends_with("-> " + csv.string() + "\n"));
  const ResultTable table = read_csv(csv);
  REQUIRE(table.num_rows() == 3);
  CHECK(table.time(1) == 0.25);
  CHECK(std::filesystem::exists(dir.file("sub/pendulum.units.csv")));
  CHECK(std::filesystem::exists(dir.file("sub/pendulum.events.csv")));
}

TEST_CASE("an interrupted run says so once, keeps its files and exits 1") {
  const test::TempDir dir;
  const std::atomic<bool> cancel{true};
  const ProgramRun o = run(*find_example("pendulum"), {dir.file("p.csv").string()}, &cancel);
  CHECK(o.status == 1);
  CHECK(o.out.starts_with("status: interrupted at t = 0\n"));
  CHECK(std::filesystem::exists(dir.file("p.csv")));
  CHECK(std::filesystem::exists(dir.file("p.events.csv")));
}

TEST_CASE("a model that fails during the run leaves its partial result and exits 2") {
  const test::TempDir dir;
  const Example e = synthetic([](const ParameterValues&) { return std::make_unique<TableEnds>(); });
  const ProgramRun o = run(e, {dir.file("r.csv").string()});
  CHECK(o.status == 2);
  CHECK(o.out.empty());
  CHECK(o.err.starts_with("hdae-synthetic: model 'table_ends' failed in integration at t = "));
  CHECK(o.err.find(": table ends at t = 0.5\n") != std::string::npos);
  CHECK(o.err.ends_with("hdae-synthetic: partial result written to " + dir.file("r.csv").string() +
                        "\n"));
  const ResultTable partial = read_csv(dir.file("r.csv"));
  REQUIRE(partial.num_rows() > 1);
  CHECK(partial.time(partial.num_rows() - 1) <= 0.5);
}

TEST_CASE("a model that cannot be built exits with 2 and the reason, also when memory runs out") {
  const test::TempDir dir;
  const std::string out = dir.file("r.csv").string();
  ProgramRun o = run(synthetic([](const ParameterValues&) -> std::unique_ptr<SimulationModel> {
                       throw std::bad_alloc();
                     }),
                     {out});
  CHECK(o.status == 2);
  CHECK(o.err == "hdae-synthetic: out of memory while building the model\n");

  o = run(synthetic([](const ParameterValues&) -> std::unique_ptr<SimulationModel> {
            throw ModelError("variable 'x' declared twice");
          }),
          {out});
  CHECK(o.status == 2);
  CHECK(o.err == "hdae-synthetic: variable 'x' declared twice\n");

  o = run(synthetic([](const ParameterValues&) -> std::unique_ptr<SimulationModel> { throw 42; }),
          {out});
  CHECK(o.status == 2);
  CHECK(o.err ==
        "hdae-synthetic: an exception not derived from std::exception while building the "
        "model\n");
  CHECK_FALSE(std::filesystem::exists(out));
}

TEST_CASE("an output path that cannot be written exits with 2 naming it") {
  const test::TempDir dir;
  // A directory where the CSV should be.
  ProgramRun o = run("pendulum", {dir.path().string(), "--stop", "0.1"});
  CHECK(o.status == 2);
  CHECK(o.err == "hdae-pendulum: " + dir.path().string() + ": cannot open for writing\n");
  // A file where its directory should be.
  dir.write("file", "x");
  o = run("pendulum", {dir.file("file/run.csv").string(), "--stop", "0.1"});
  CHECK(o.status == 2);
  CHECK(o.err.starts_with("hdae-pendulum: filesystem error: cannot create directories: "));
  CHECK(o.err.find(dir.file("file").string()) != std::string::npos);
}

TEST_CASE("output to a device writes the table there only and says so") {
  const ProgramRun o = run("pendulum", {"/dev/null", "--stop", "0.1"});
  CHECK(o.status == 0);
  CHECK(o.err ==
        "hdae-pendulum: /dev/null is not a regular file: wrote the table only, no units, event "
        "log or parameters file\n");
  CHECK(o.out.ends_with("-> /dev/null\n"));
}

TEST_CASE("hdae-example lists the registry and runs an example named on its command line") {
  ProgramRun o = launch({"--list"});
  CHECK(o.status == 0);
  CHECK(o.out == registry_listing());

  o = launch({"pendulum", "--version"});
  CHECK(o.status == 0);
  CHECK(o.out == version_text("hdae-pendulum") + "\n");

  o = launch({"pendulum", "--stop", "abc"});
  CHECK(o.status == 2);
  CHECK(o.err.starts_with("hdae-pendulum: Could not convert: --stop = abc\n"));

  o = launch({"--help"});
  CHECK(o.status == 0);
  CHECK(o.out.find("Usage: hdae-example [OPTIONS] [example]\n") != std::string::npos);
  CHECK(o.out.find("Examples: pendulum, ") != std::string::npos);
}

TEST_CASE("hdae-example exits with 2 for an unknown example, no example, or --list with one") {
  ProgramRun o = launch({"pendulm"});
  CHECK(o.status == 2);
  CHECK(o.err == "hdae-example: no example called 'pendulm' ('hdae-example --list' names them)\n");

  o = launch({});
  CHECK(o.status == 2);
  CHECK(o.err ==
        "hdae-example: name an example to run ('hdae-example --list' names them), or ask for "
        "--help\n");

  o = launch({"--list", "pendulum"});
  CHECK(o.status == 2);
  CHECK(o.err == "hdae-example: --list takes no example name, got 'pendulum'\n");

  o = launch({"--frobnicate"});
  CHECK(o.status == 2);
  CHECK(o.err.starts_with("hdae-example: The following argument was not expected: --frobnicate\n"));
}

TEST_CASE("--set puts parameters into the model and the run writes them beside the result") {
  const test::TempDir dir;
  const std::string output = dir.file("clutch.csv").string();
  const ProgramRun o =
      run("ideal_clutch", {"--set", "J2=0.5", "--set=k=0.3", "--stop", "1", "-o", output});
  INFO(o.err);
  CHECK(o.status == 0);
  const std::vector<ParameterInfo> params = read_params_csv(dir.file("clutch.params.csv"));
  REQUIRE(params.size() == 10);
  CHECK(params[2].name == "J2");
  CHECK(params[2].value == 0.5);
  CHECK(params[5].name == "k");
  CHECK(params[5].value == 0.3);
  CHECK(params[0].value == 10.0);  // V0 keeps its default
  // (J1 + k^2 C) w1 + J2 w2 conserved at the engagement at t = 0, computed by hand:
  // (0.1 + 0.09 * 2) * 0 + 0.5 * 10 = 0.78 w, w = 6.410256 rad/s.
  CHECK(o.out.find("w1(0+) = 6.410256 rad/s") != std::string::npos);
  // The chain's N as a parameter: the same as the positional count.
  const ProgramRun chain =
      run("mass_spring_chain", {"--set", "N=3", "--stop", "0.1", dir.file("chain.csv").string()});
  CHECK(chain.status == 0);
  CHECK(chain.out.find("N = 3 masses (9 unknowns") != std::string::npos);
}

TEST_CASE("a bad --set exits with 2 naming the parameter and writes nothing") {
  const test::TempDir dir;
  const std::string output = dir.file("c.csv").string();
  ProgramRun o = run("ideal_clutch", {"--set", "J2=abc", output});
  CHECK(o.status == 2);
  CHECK(o.err ==
        "hdae-ideal-clutch: --set: the value of parameter 'J2' is not a number: 'abc'\n"
        "Run 'hdae-ideal-clutch --help' for the usage.\n");
  o = run("ideal_clutch", {"--set", "=1", output});
  CHECK(o.status == 2);
  CHECK(o.err.starts_with("hdae-ideal-clutch: --set: '=1' is not NAME=VALUE\n"));
  // A number beyond a double is named as such, with the range a value may take.
  o = run("ideal_clutch", {"--set", "J2=1e400", output});
  CHECK(o.status == 2);
  CHECK(
      o.err.starts_with("hdae-ideal-clutch: --set: the value of parameter 'J2' is out of "
                        "range: '1e400' (numbers from -1.79769e+308 to 1.79769e+308"));
  // One parameter set twice would silently take the last value.
  o = run("ideal_clutch", {"--set", "J2=1", "--set", "J2=2", output});
  CHECK(o.status == 2);
  CHECK(o.err ==
        "hdae-ideal-clutch: J2 is given twice: --set J2=1 and --set J2=2\n"
        "Run 'hdae-ideal-clutch --help' for the usage.\n");
  o = run("bouncing_ball", {"--set", "e=2", output});
  CHECK(o.status == 2);
  CHECK(o.err ==
        "hdae-bouncing-ball: --set e=2: model 'bouncing_ball': parameter 'e' (coefficient of "
        "restitution) must be a finite number in [0, 1], got 2\n");
  o = run("bouncing_ball", {"--set", "E=0.5", output});
  CHECK(o.status == 2);
  CHECK(o.err ==
        "hdae-bouncing-ball: --set E=0.5: model 'bouncing_ball' has no parameter 'E'; its "
        "parameters are: h_start, e, g, v_rest\n");
  o = run("bouncing_ball", {"--set", "e=nan", output});
  CHECK(o.status == 2);
  CHECK(o.err.find("parameter 'e' (coefficient of restitution) must be a finite number in "
                   "[0, 1], got nan") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(output));
  // -o and the positional output together are one output too many.
  o = run("pendulum", {"-o", output, output});
  CHECK(o.status == 2);
  CHECK(o.err.starts_with("hdae-pendulum: output excludes --output\n"));
}

TEST_CASE("an empty output path exits with 2 naming the argument, before the run") {
  const test::TempDir dir;
  const std::filesystem::path cwd = std::filesystem::current_path();
  // Run from an empty directory: the run used to write .units.csv, .events.csv and
  // .params.csv there before failing on the empty path.
  std::filesystem::current_path(dir.path());
  const ProgramRun positional = run("pendulum", {""});
  const ProgramRun option = run("pendulum", {"-o", ""});
  const bool nothing_written = std::filesystem::is_empty(dir.path());
  std::filesystem::current_path(cwd);
  CHECK(positional.status == 2);
  CHECK(positional.out.empty());
  CHECK(positional.err ==
        "hdae-pendulum: output: must not be empty\nRun 'hdae-pendulum --help' for the usage.\n");
  CHECK(option.status == 2);
  CHECK(option.err ==
        "hdae-pendulum: --output: must not be empty\nRun 'hdae-pendulum --help' for the usage.\n");
  CHECK(nothing_written);
}

TEST_CASE("an empty option value or an empty list item exits with 2 naming the option") {
  const struct {
    std::vector<std::string> args;
    std::string message;
  } cases[] = {
      {{"--threads", ""}, "--threads: must not be empty"},
      {{"--initial-step", ""}, "--initial-step: must not be empty"},
      {{"--max-step", ""}, "--max-step: must not be empty"},
      // "--opt=" with nothing after '=' is CLI11's missing value, an error naming it too.
      {{"--max-step="}, "--max-step: 1 required S missing"},
      {{"--stop", ""}, "--stop: must not be empty"},
      {{"--rtol", ""}, "--rtol: must not be empty"},
      {{"--max-order", ""}, "--max-order: must not be empty"},
      {{"--output-interval", ""}, "--output-interval: must not be empty"},
      {{"--output-times", ""},
       "--output-times: '' holds an empty time (times separated by commas, e.g. '0.5,1,2.5')"},
      {{"--output-times", "1,,2"},
       "--output-times: '1,,2' holds an empty time (times separated by commas, e.g. "
       "'0.5,1,2.5')"},
      {{"--output-times", "1,2,"},
       "--output-times: '1,2,' holds an empty time (times separated by commas, e.g. "
       "'0.5,1,2.5')"},
      {{"--output-times", "1,x"}, "--output-times: 'x' is not a number"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.message);
    const ProgramRun o = run("bouncing_ball", c.args);
    CHECK(o.status == 2);
    CHECK(o.out.empty());
    CHECK(o.err == "hdae-bouncing-ball: " + c.message +
                       "\nRun 'hdae-bouncing-ball --help' for the usage.\n");
  }
}

TEST_CASE("a count given both as its positional argument and with --set exits with 2") {
  const test::TempDir dir;
  const std::string out = dir.file("o.csv").string();
  const ProgramRun o = run("mass_spring_chain", {"--set", "N=3", out, "4"});
  CHECK(o.status == 2);
  CHECK(o.out.empty());
  CHECK(o.err ==
        "hdae-mass-spring-chain: N is given twice: as the positional argument 4 and as --set "
        "N=3\nRun 'hdae-mass-spring-chain --help' for the usage.\n");
  CHECK_FALSE(std::filesystem::exists(out));
  // Either alone is one value.
  CHECK(parsed("mass_spring_chain", {out, "4"}).parameters.count("N") == 4);
  CHECK(parsed("mass_spring_chain", {"--set", "N=3", out}).settings.size() == 1);
}

TEST_CASE("--rows events with --output-interval or --output-times exits with 2 naming both") {
  for (const auto& [option, value] :
       {std::pair{"--output-interval", "0.1"}, std::pair{"--output-times", "0.5,1"}}) {
    CAPTURE(option);
    const ProgramRun o = run("bouncing_ball", {"--rows", "events", option, value});
    CHECK(o.status == 2);
    CHECK(o.out.empty());
    CHECK(o.err == std::string("hdae-bouncing-ball: --rows events contradicts ") + option +
                       ": it records the event rows only, no output grid\n"
                       "Run 'hdae-bouncing-ball --help' for the usage.\n");
  }
  // The grid's other selections take the grid options.
  CHECK(parsed("bouncing_ball", {"--rows", "every:2", "--output-interval", "0.1"})
            .options.output_interval_s == 0.1);
  CHECK(parsed("bouncing_ball", {"--rows", "events"}).options.record_rows ==
        RecordedRows::kEventsOnly);
}

TEST_CASE("the option --output-times @FILE takes the times from a file, as many as it holds") {
  // A command line holds some ten thousand times; a file any number: 30000 here, one per
  // line after a comment, and the run has a row at each (plus t0's).
  const test::TempDir dir;
  std::string times = "# every millisecond\n";
  for (int i = 1; i <= 30000; ++i) times += fmt::format("{:.3f}\n", i * 1e-3);
  const auto file = dir.write("times.txt", times);
  const std::string out = dir.file("p.csv").string();
  ProgramRun o = run("pendulum", {"--stop", "30", "--output-times", "@" + file.string(), out});
  CHECK(o.status == 0);
  CHECK(read_csv(out).num_rows() == 30001);
  o = run("pendulum", {"--output-times", "@" + dir.file("none.txt").string(), out});
  CHECK(o.status == 2);
  CHECK(
      o.err.starts_with(fmt::format("hdae-pendulum: --output-times: {}: cannot be read: No "
                                    "such file or directory",
                                    dir.file("none.txt").string())));
  dir.write("bad.txt", "0.5, 1\n2 x\n");
  o = run("pendulum", {"--output-times", "@" + dir.file("bad.txt").string(), out});
  CHECK(o.status == 2);
  CHECK(o.err.find("bad.txt: 'x' is not a number") != std::string::npos);
}
