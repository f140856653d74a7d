// hdae-example's own command line (launcher.hpp).
#include "program/launcher.hpp"

#include <ostream>

#include <CLI/CLI.hpp>
#include "program/command_line.hpp"
#include "program/parse_arguments.hpp"
#include "registry/registry.hpp"

namespace hdae::examples {
namespace {

/// Runs the example called name as its program hdae-<name> with args.
int run_named(const std::string& program, const std::string& name,
              const std::vector<std::string>& args, const ProgramEnvironment& env) {
  const Example* example = find_example(name);
  if (example == nullptr) {
    env.err << program << ": no example called '" << name << "' ('" << program
            << " --list' names them)\n";
    return 2;
  }
  return run_example_program(*example, program_name(*example), args, env);
}

}  // namespace

std::string registry_listing() {
  std::string text;
  for (const Example& e : registry()) {
    text += e.name;
    for (const std::string& arg : reference_arguments(e)) text += ' ' + arg;
    text += '\n';
  }
  return text;
}

int run_launcher(const std::string& program, const std::vector<std::string>& args,
                 const ProgramEnvironment& env) {
  CLI::App app(
      "The bundled example programs: hdae-<name> is a link to this program, which runs the "
      "example <name> of its registry (examples/registry/registry.cpp).",
      program);
  app.set_version_flag("--version", version_text(program));
  bool list = false;
  app.add_flag("--list", list,
               "print one line per example: its name, then the arguments after the output path "
               "of its reference run");
  std::string name;
  app.add_option("example", name,
                 "run this example; the arguments after it are those of hdae-<name> (see "
                 "'hdae-<name> --help')");
  std::string names;
  for (const Example& e : registry()) names += (names.empty() ? "" : ", ") + e.name;
  app.footer("Examples: " + names + ".");

  // hdae-example <name> [args...]: everything after the name belongs to the example program.
  if (!args.empty() && !args.front().starts_with('-')) {
    return run_named(program, args.front(), {args.begin() + 1, args.end()}, env);
  }

  if (const std::optional<int> done = parse_arguments(app, args, program, env.out, env.err)) {
    return *done;
  }

  if (list) {
    if (name.empty()) {
      env.out << registry_listing();
      return 0;
    }
    env.err << program << ": --list takes no example name, got '" << name << "'\n";
    return 2;
  }
  if (!name.empty()) return run_named(program, name, {}, env);  // after "--"
  env.err << program << ": name an example to run ('" << program
          << " --list' names them), or ask for --help\n";
  return 2;
}

}  // namespace hdae::examples
