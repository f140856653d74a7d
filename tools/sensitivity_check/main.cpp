// hdae-sensitivity-check [model ...] [options]: the sensitivities of every bundled model (or of
// the models named) against central differences of perturbed runs, as a table
// (sensitivity_check.hpp). Each model's lines go to stderr as it is done, the whole table to
// stdout at the end. Exit status 1 when a check fails, 2 for a bad command line.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "sensitivity_check/sensitivity_check.hpp"

namespace {

namespace check = hdae::sensitivity_check;

/// What the command line changes in the plans.
struct Changes {
  std::vector<std::string> models;
  std::vector<std::string> sources;
  double tolerance = 1e-5;
  double relative_step = 0.0;
  double stop_s = 0.0;
  bool dense = false;
};

std::vector<check::Plan> plans_of(const Changes& c) {
  std::vector<check::Plan> plans;
  if (c.models.empty()) plans = check::plans();
  for (const std::string& name : c.models) plans.push_back(check::plan_for(name));
  for (check::Plan& plan : plans) {
    if (c.relative_step > 0.0) {
      plan.relative_step = c.relative_step;
      plan.source_steps.clear();
    }
    if (c.stop_s > 0.0) plan.stop_s = c.stop_s;
    if (!c.sources.empty()) plan.sources = c.sources;
    if (c.dense) plan.sparse = false;
  }
  return plans;
}

int run(int argc, char** argv) {
  CLI::App app{"Sensitivities of the bundled models against central differences of perturbed runs"};
  Changes c;
  app.add_option("model", c.models, "models to check (default: all)");
  app.add_option("--tolerance", c.tolerance, "largest relative error that passes")
      ->check(CLI::PositiveNumber);
  app.add_option("--relative-step", c.relative_step,
                 "the central differences' step relative to the source (default: the plan's)")
      ->check(CLI::PositiveNumber);
  app.add_option("--stop", c.stop_s, "stop time in s (default: the plan's)")
      ->check(CLI::PositiveNumber);
  app.add_option("--sources", c.sources, "parameters and start(<variable>) (default: the plan's)")
      ->delimiter(',');
  app.add_flag("--dense", c.dense, "dense Newton matrices even where the plan asks for KLU");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  std::vector<check::SourceCheck> all;
  for (const check::Plan& plan : plans_of(c)) {
    const std::vector<check::SourceCheck> some = check::check(plan, c.tolerance);
    all.insert(all.end(), some.begin(), some.end());
    std::fputs(check::format_table(some, c.tolerance).c_str(), stderr);
  }
  std::fputs(check::format_table(all, c.tolerance).c_str(), stdout);
  for (const check::SourceCheck& o : all) {
    if (o.verdict == check::SourceCheck::Verdict::kFail) return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hdae-sensitivity-check: %s\n", e.what());
  } catch (...) {
    std::fputs("hdae-sensitivity-check: unknown error\n", stderr);
  }
  return 2;
}
