// Simple state events: a spring-mass pushed by a force that switches at s = 0; 10 s.
// Usage: hdae-simple-state-events [output.csv]   (default results/simple_state_events.csv)
#include <fmt/format.h>

#include "common/example_settings.hpp"
#include "common/run_example.hpp"
#include "hdae/models/simple_state_events.hpp"

int main(int argc, char** argv) {
  hdae::models::SimpleStateEvents model;
  const hdae::SimulationOptions options = hdae::examples::simple_state_events_options();
  return hdae::examples::run_example("hdae-simple-state-events", model, options,
                                     hdae::examples::output_path(argc, argv, "simple_state_events"),
                                     [](const hdae::SimulationResult& r) {
                                       fmt::print("{} state events\n", r.statistics.state_events);
                                     });
}
