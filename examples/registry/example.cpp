// The helpers of example.hpp: program names and parameter values derived from an entry.
#include "registry/example.hpp"

#include <algorithm>

namespace hdae::examples {

std::string program_name(const Example& example) {
  std::string name = "hdae-" + example.name;
  std::replace(name.begin(), name.end(), '_', '-');
  return name;
}

ParameterValues default_parameters(const Example& example) {
  ParameterValues values;
  for (const ExampleParameter& p : example.parameters) {
    if (p.kind == ParameterKind::kCount) values.counts[p.name] = p.default_count;
  }
  return values;
}

ParameterValues reference_parameters(const Example& example) {
  ParameterValues values = default_parameters(example);
  for (const auto& [name, count] : example.reference_parameters.counts) values.counts[name] = count;
  values.flags = example.reference_parameters.flags;
  return values;
}

std::vector<std::string> reference_arguments(const Example& example) {
  const ParameterValues values = reference_parameters(example);
  std::vector<std::string> counts;
  std::size_t needed = 0;  // positional: a count can only be given after the ones before it
  std::vector<std::string> flags;
  for (const ExampleParameter& p : example.parameters) {
    if (p.kind == ParameterKind::kCount) {
      counts.push_back(std::to_string(values.count(p.name)));
      if (values.count(p.name) != p.default_count) needed = counts.size();
    } else if (values.flag(p.name)) {
      flags.push_back("--" + p.name);
    }
  }
  counts.resize(needed);
  counts.insert(counts.end(), flags.begin(), flags.end());
  return counts;
}

}  // namespace hdae::examples
