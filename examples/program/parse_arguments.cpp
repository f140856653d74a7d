// CLI11 parsing with the programs' answers (parse_arguments.hpp).
#include "program/parse_arguments.hpp"

#include <ostream>

namespace hdae::examples {

std::optional<int> parse_arguments(CLI::App& app, const std::vector<std::string>& args,
                                   const std::string& program, std::ostream& out,
                                   std::ostream& err) {
  try {
    // CLI11 takes the arguments in reverse order.
    std::vector<std::string> reversed(args.rbegin(), args.rend());
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    out << app.help();
    return 0;
  } catch (const CLI::CallForVersion& e) {
    out << e.what() << '\n';
    return 0;
  } catch (const CLI::ParseError& e) {
    return usage_error(program, e.what(), err);
  }
  return std::nullopt;
}

int usage_error(const std::string& program, const std::string& problem, std::ostream& err) {
  err << program << ": " << problem << '\n' << "Run '" << program << " --help' for the usage.\n";
  return 2;
}

}  // namespace hdae::examples
