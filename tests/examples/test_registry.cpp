// The example registry (examples/registry/): its entries are complete and consistent with
// their references, and the names and arguments derived from an entry (program names, the
// reference run's arguments, `hdae-example --list`) follow the rules of example.hpp.
#include <algorithm>
#include <filesystem>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "hdae/csv.hpp"
#include "hdae/models/catalog.hpp"
#include "hdae/models/mass_spring_chain.hpp"
#include "hdae/simulator.hpp"
#include "program/launcher.hpp"
#include "registry/reference_run.hpp"
#include "registry/registry.hpp"

using namespace hdae;
using namespace hdae::examples;

TEST_CASE("every registered example has a unique lower-case name, a model and key numbers") {
  std::set<std::string> names;
  for (const Example& e : registry()) {
    CAPTURE(e.name);
    // [a-z][a-z0-9_]*: the program name replaces '_' by '-', the files use the name as is.
    REQUIRE_FALSE(e.name.empty());
    CHECK((e.name.front() >= 'a' && e.name.front() <= 'z'));
    CHECK(std::all_of(e.name.begin(), e.name.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    }));
    CHECK(names.insert(e.name).second);
    CHECK_FALSE(e.description.empty());
    CHECK(static_cast<bool>(e.make_model));
    CHECK(static_cast<bool>(e.key_numbers));
    CHECK_FALSE(e.reference_signals.empty());
    CHECK_NOTHROW(e.options.validate());
  }
}

TEST_CASE("every registered example's reference CSV has exactly its reference signals") {
  for (const Example& e : registry()) {
    CAPTURE(e.name);
    const ResultTable reference =
        read_csv(std::filesystem::path(HDAE_REFERENCE_DIR) / (e.name + ".csv"));
    std::vector<std::string> columns;
    for (const ColumnInfo& c : reference.columns()) columns.push_back(c.name);
    CHECK(columns == e.reference_signals);
  }
}

TEST_CASE("reference parameters name parameters their example declares, with the right kind") {
  for (const Example& e : registry()) {
    CAPTURE(e.name);
    const auto declared = [&e](const std::string& name, ParameterKind kind) {
      for (const ExampleParameter& p : e.parameters) {
        if (p.name == name && p.kind == kind) return true;
      }
      return false;
    };
    for (const auto& [name, count] : e.reference_parameters.counts) {
      CHECK(declared(name, ParameterKind::kCount));
      CHECK(count >= 1);
    }
    for (const std::string& name : e.reference_parameters.flags) {
      CHECK(declared(name, ParameterKind::kFlag));
    }
  }
}

TEST_CASE("a catalog entry with a run and reference signals only is an example with defaults") {
  // What a new example's catalog line gives: the entry's description for --help, its factory
  // with each count set as the model parameter of its name, the final values of the reference
  // signals as key numbers.
  const models::CatalogEntry entry{
      "small_chain",
      "A chain of three masses",
      [] {
        return std::make_unique<models::MassSpringChain>(
            models::MassSpringChainParameters{.masses = 3});
      },
      {.options = models::run_to(1.0),
       .reference_signals = {"s[1]", "energy"},
       .parameters = {{.kind = ParameterKind::kCount, .name = "N", .default_count = 3}}}};
  const Example example = example_of(entry);
  CHECK(example.name == "small_chain");
  CHECK(example.description == "A chain of three masses");
  CHECK(program_name(example) == "hdae-small-chain");
  CHECK(example.make_model(default_parameters(example))->structure().num_unknowns() == 9);
  CHECK(example.make_model({.counts = {{"N", 5}}})->structure().num_unknowns() == 15);
  const std::unique_ptr<SimulationModel> model = example.make_model(default_parameters(example));
  const SimulationResult r = simulate(*model, example.options);
  REQUIRE(r.status.ok());
  CHECK(example.key_numbers(*model, r) == fmt::format("s[1](1) = {:.6g}, energy(1) = {:.6g}",
                                                      r.table.final_value("s[1]"),
                                                      r.table.final_value("energy")));
}

TEST_CASE("an example's program is hdae- and its name with dashes, and is found by that name") {
  const Example* chain = find_example("mass_spring_chain");
  REQUIRE(chain != nullptr);
  CHECK(program_name(*chain) == "hdae-mass-spring-chain");
  CHECK(find_example_by_program("hdae-mass-spring-chain") == chain);
  CHECK(find_example_by_program("hdae-example") == nullptr);
  CHECK(find_example_by_program("mass_spring_chain") == nullptr);
  CHECK(find_example("hdae-mass-spring-chain") == nullptr);
}

TEST_CASE("the reference run's arguments give counts up to the last changed one, then flags") {
  Example e{.name = "synthetic"};
  e.parameters = {{.kind = ParameterKind::kCount, .name = "N", .default_count = 10},
                  {.kind = ParameterKind::kFlag, .name = "fast"},
                  {.kind = ParameterKind::kCount, .name = "M", .default_count = 3}};
  CHECK(reference_arguments(e).empty());

  // Only the second count differs: the first must still be given, positionally before it.
  e.reference_parameters = {.counts = {{"M", 4}}};
  CHECK(reference_arguments(e) == std::vector<std::string>{"10", "4"});

  e.reference_parameters = {.counts = {{"N", 20}}, .flags = {"fast"}};
  CHECK(reference_arguments(e) == std::vector<std::string>{"20", "--fast"});
  const ParameterValues values = reference_parameters(e);
  CHECK(values.count("N") == 20);
  CHECK(values.count("M") == 3);
  CHECK(values.flag("fast"));
}

TEST_CASE("a parameter value that was never declared is an error naming it") {
  const ParameterValues values;
  CHECK_THROWS_WITH_AS(static_cast<void>(values.count("N")), "no count parameter 'N'",
                       std::out_of_range);
  CHECK_FALSE(values.flag("fixed"));
}

TEST_CASE("the listing has one line per example: its name and its reference run's arguments") {
  std::istringstream listing(registry_listing());
  std::string line;
  std::size_t i = 0;
  while (std::getline(listing, line)) {
    REQUIRE(i < registry().size());
    const Example& e = registry()[i++];
    std::string expected = e.name;
    for (const std::string& arg : reference_arguments(e)) expected += ' ' + arg;
    CHECK(line == expected);
  }
  CHECK(i == registry().size());
  // The chain's reference has N = 20 masses (tests/compare/test_references.cpp checks its
  // start values for that N).
  CHECK(registry_listing().find("\nmass_spring_chain 20\n") != std::string::npos);
}

TEST_CASE("key numbers after an initial jump read the right limit x^+(t0)") {
  // Mosterman's hydraulic actuator jumps at t0 from x^- = [3, 0, 0, 0] to eq. (51) of his
  // paper, x^+ = [1, -1, -5.00044, 0]; the line must show x^+, not the stored left limit.
  const Example* e = find_example("hydraulic_actuator");
  REQUIRE(e != nullptr);
  auto model = e->make_model(ParameterValues{});
  SimulationOptions o = e->options;
  o.stop_s = 0.1;
  const SimulationResult r = simulate(*model, o);
  REQUIRE(r.status.ok());
  const std::string line = e->key_numbers(*model, r);
  CAPTURE(line);
  CHECK(line.starts_with("x(0+) = [1, -1, -5.0004"));
}
