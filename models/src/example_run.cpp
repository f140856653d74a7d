// The helpers of example_run.hpp.
#include "hdae/models/example_run.hpp"

#include <stdexcept>
#include <string>

namespace hdae::models {

std::size_t ParameterValues::count(std::string_view name) const {
  const auto it = counts.find(name);
  if (it == counts.end()) {
    throw std::out_of_range("no count parameter '" + std::string(name) + "'");
  }
  return it->second;
}

SimulationOptions run_to(double stop_s) {
  SimulationOptions o;
  o.stop_s = stop_s;
  o.rel_tol = 1e-8;
  return o;
}

SimulationOptions run_to_at_steps(double stop_s) {
  SimulationOptions o = run_to(stop_s);
  o.step_to_outputs = true;
  return o;
}

}  // namespace hdae::models
