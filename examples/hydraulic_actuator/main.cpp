// Hydraulic actuator (Mosterman's paper, section 5): the mode "supply valve closed, relief
// valve open" started from x^- = [3, 0, 0, 0] (eq. 43); the jump solve gives eq. 51,
// x^+ = [1, -1, -5.00044, 0]; then 10 s of the decay.
// Usage: hdae-hydraulic-actuator [output.csv]   (default results/hydraulic_actuator.csv)
#include <fmt/format.h>

#include "common/example_settings.hpp"
#include "common/run_example.hpp"
#include "hdae/models/hydraulic_actuator.hpp"

int main(int argc, char** argv) {
  hdae::models::HydraulicActuator model;
  const hdae::SimulationOptions options = hdae::examples::hydraulic_actuator_options();
  return hdae::examples::run_example(
      "hdae-hydraulic-actuator", model, options,
      hdae::examples::output_path(argc, argv, "hydraulic_actuator"),
      [](const hdae::SimulationResult& r) {
        const auto at0 = [&r](const char* name) {
          return r.table.value(0, r.table.column_index(name));
        };
        fmt::print("x(0+) = [{:.6g}, {:.6g}, {:.6g}, {:.6g}], f_p(10) = {:.6f}\n", at0("f_p"),
                   at0("f_rel"), at0("p_Rrel"), at0("p_Rin"), r.table.final_value("f_p"));
      });
}
