// The FMU's documentation page (documentation.hpp).
#include "documentation.hpp"

#include <fmt/format.h>

#include "hdae/version.hpp"

namespace hdae::fmu_export {
namespace {

std::string escaped(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string variables_table(const ModelStructure& s) {
  std::string rows;
  for (std::size_t j = 0; j < s.variables.size(); ++j) {
    rows += fmt::format("<tr><td>{}</td><td>{}</td><td>output (start {:g})</td></tr>\n",
                        escaped(s.variables.name(j)), escaped(s.variables.declared(j).unit),
                        s.variables.start(j));
  }
  for (const OutputInfo& o : s.outputs) {
    rows += fmt::format("<tr><td>{}</td><td>{}</td><td>output</td></tr>\n", escaped(o.name),
                        escaped(o.unit));
  }
  for (const ParameterInfo& p : s.parameters) {
    rows += fmt::format("<tr><td>{}</td><td>{}</td><td>parameter = {:g}{}</td></tr>\n",
                        escaped(p.name), escaped(p.unit), p.value,
                        p.description.empty() ? "" : ": " + escaped(p.description));
  }
  return "<table>\n<tr><th>name</th><th>unit</th><th>role</th></tr>\n" + rows + "</table>\n";
}

}  // namespace

std::string documentation_html(const ModelStructure& structure, const std::string& description) {
  return fmt::format(
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{0}</title></head><body>\n"
      "<h1>{0}</h1>\n<p>{1}</p>\n"
      "<p>An FMI 3.0 Co-Simulation FMU exported by hdae {2}. fmi3DoStep integrates the model's "
      "differential-algebraic equations with SUNDIALS IDA and handles every event inside the "
      "step, jumps of the state included; the logger's category logEvents reports them. The "
      "derivatives der(...) are readable locals. Parameters can be set until "
      "fmi3ExitInitializationMode. Not supported: Model Exchange, Scheduled Execution, Event "
      "Mode, getting and setting the FMU state, partial derivatives. An importer that allows early "
      "return gets it at each event: the step then ends at the event's time.</p>\n{3}"
      "</body></html>\n",
      escaped(structure.name), escaped(description), kVersion, variables_table(structure));
}

}  // namespace hdae::fmu_export
