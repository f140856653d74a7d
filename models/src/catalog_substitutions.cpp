// Substitute equations in the catalog (catalog_groups.hpp): the PID-controlled mass as written
// and in the forms that substitute its derivatives, then a guarded substitute equation for a
// tank's overflow.
#include <fmt/format.h>

#include "catalog_groups.hpp"
#include "hdae/models/pid_controller.hpp"
#include "hdae/models/tank_overflow.hpp"

namespace hdae::models {
namespace {

/// The PID-controlled mass in one of its forms, described by description.
CatalogEntry pid_entry(PidForm form, const std::string& description) {
  return {pid_model_name(form),
          description,
          [form] { return make_pid_controller(form); },
          {
              .options = run_to(10.0),
              .reference_signals = {"x", "v", "i", "e", "u"},
              .key_numbers =
                  [](const SimulationModel&, const SimulationResult& r) {
                    return fmt::format(
                        "x({0}) = {1:.6f} m, i({0}) = {2:.6f} m s, u({0}) = {3:.6f} N", end_time(r),
                        r.table.final_value("x"), r.table.final_value("i"),
                        r.table.final_value("u"));
                  },
              .description = description + ", load F = 2 + 0.5 sin(2t) N",
          }};
}

ExampleRun tank_overflow_example() {
  return {
      .options = run_to(5.0),
      .reference_signals = {"h", "Q_x", "Q_i"},
      .key_numbers =
          [](const SimulationModel&, const SimulationResult& r) {
            return fmt::format("{1} state events, h({0}) = {2:.6f} m, Q_x({0}) = {3:.3g} m3/s",
                               end_time(r), r.statistics.state_events, r.table.final_value("h"),
                               r.table.final_value("Q_x"));
          },
      .description =
          "Tank with an overflow Q_x <- [h < h_max or Q_i < Q_o -> 0 || else Q_i - "
          "Q_o]: fills to h_max = 1 m at 2 s, overflows until the inflow drops at 3 s",
  };
}

}  // namespace

std::vector<CatalogEntry> substitution_models() {
  return {
      pid_entry(PidForm::kAsWritten,
                "PID-controlled mass (chi) as written, index 2, reduced by the engine"),
      pid_entry(PidForm::kDerivativeSubstituted,
                "PID-controlled mass with the substitute equation der(e) <- der(x), index 1"),
      pid_entry(PidForm::kSubstituted,
                "PID-controlled mass with e <- x - x_set and der(e) <- der(x): 4 equations"),
      pid_entry(PidForm::kHandReduced, "PID-controlled mass reduced to index 1 by hand"),
      {"tank_overflow", "Tank with an overflow given by a guarded substitute equation (chi)",
       make_default<TankOverflow>, tank_overflow_example()},
  };
}

}  // namespace hdae::models
