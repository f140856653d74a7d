// `hdae fmu export` (fmu_export_command.hpp).
#include "fmu_export_command.hpp"

#include <cstdlib>
#include <exception>
#include <optional>
#include <ostream>

#include <fmt/format.h>

#include "hdae/fmu_export.hpp"
#include "program/command_line.hpp"

namespace hdae::cli {
namespace {

namespace fs = std::filesystem;

constexpr const char* kUsage =
    "hdae fmu export <model> -o <file>.fmu [--set NAME=VALUE ...]\n"
    "  writes the bundled model <model> ('hdae list' names them) as an FMI 3.0 Co-Simulation "
    "FMU,\n  with its parameters set as given (they stay settable in the FMU until its "
    "initialization ends)";

int fail(const examples::ProgramEnvironment& env, const std::string& message) {
  env.err << "hdae fmu export: " << message << '\n';
  return 2;
}

/// The request a command line asks for, or the exit code of one that asks for none.
std::optional<fmu_export::ExportRequest> parse(const std::vector<std::string>& args,
                                               const examples::ProgramEnvironment& env,
                                               int* exit_code) {
  fmu_export::ExportRequest request;
  *exit_code = 2;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      env.out << "Usage: " << kUsage << '\n';
      *exit_code = 0;
      return std::nullopt;
    }
    if (a == "-o" || a == "--output" || a == "--set") {
      if (i + 1 == args.size()) return fail(env, a + " needs a value"), std::nullopt;
      const std::string& value = args[++i];
      if (a == "--set") {
        std::string error;
        const std::optional<examples::ParameterSetting> s = examples::parse_setting(value, &error);
        if (!s) return fail(env, error), std::nullopt;
        request.parameters.emplace_back(s->name, s->value);
      } else {
        request.output = value;
      }
    } else if (a.starts_with('-') || !request.model.empty()) {
      return fail(env, fmt::format("unexpected argument '{}'. Usage: {}", a, kUsage)), std::nullopt;
    } else {
      request.model = a;
    }
  }
  if (request.model.empty())
    return fail(env, "name a model. Usage: " + std::string(kUsage)), std::nullopt;
  if (request.output.empty())
    return fail(env, "name the FMU to write with -o <file>.fmu"), std::nullopt;
  if (request.output.extension() != ".fmu") {
    return fail(env, fmt::format("the output '{}' does not end in .fmu", request.output.string())),
           std::nullopt;
  }
  return request;
}

}  // namespace

fs::path find_runtime(std::vector<fs::path>* searched) {
  std::vector<fs::path> candidates;
  if (const char* env = std::getenv("HDAE_FMU_RUNTIME"); env != nullptr && *env != '\0') {
    candidates.emplace_back(env);
  } else {
    std::error_code ec;
    const fs::path program = fs::read_symlink("/proc/self/exe", ec).parent_path();
    candidates.push_back(program / "libhdae_fmu_runtime.so");
    candidates.push_back(program.parent_path() / HDAE_INSTALL_LIBDIR / "hdae" /
                         "libhdae_fmu_runtime.so");
  }
  if (searched != nullptr) *searched = candidates;
  for (const fs::path& c : candidates) {
    std::error_code ec;
    if (fs::is_regular_file(c, ec)) return c;
  }
  return {};
}

int run_fmu_command(const std::vector<std::string>& rest, const examples::ProgramEnvironment& env) {
  if (!rest.empty() && (rest.front() == "--help" || rest.front() == "-h")) {
    env.out << "Usage: " << kUsage << '\n';
    return 0;
  }
  if (rest.empty() || rest.front() != "export") {
    env.err << "hdae fmu: the command is 'export'. Usage: " << kUsage << '\n';
    return 2;
  }
  int exit_code = 2;
  std::optional<fmu_export::ExportRequest> request =
      parse({rest.begin() + 1, rest.end()}, env, &exit_code);
  if (!request) return exit_code;
  std::vector<fs::path> searched;
  request->runtime = find_runtime(&searched);
  if (request->runtime.empty()) {
    std::string places;
    for (const fs::path& p : searched) places += (places.empty() ? "" : ", ") + p.string();
    return fail(env, "the FMU runtime libhdae_fmu_runtime.so is missing (looked at: " + places +
                         "; HDAE_FMU_RUNTIME names another)");
  }
  try {
    const fmu_export::ExportSummary summary = fmu_export::export_fmu(*request);
    env.out << fmt::format("{}: model {}, binaries/x86_64-linux/{}.so with {} libraries\n",
                           request->output.string(), request->model, summary.model_identifier,
                           summary.libraries.size());
  } catch (const std::exception& e) {
    return fail(env, e.what());
  }
  return 0;
}

}  // namespace hdae::cli
