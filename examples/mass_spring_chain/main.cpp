// A chain of N masses and springs (3N unknowns, sparse DAE) integrated with KLU.
// Usage: hdae-mass-spring-chain [output.csv [N]]   (defaults results/mass_spring_chain.csv, 2000)
#include <charconv>
#include <iostream>
#include <string_view>

#include <fmt/format.h>

#include "common/example_settings.hpp"
#include "common/run_example.hpp"
#include "hdae/models/mass_spring_chain.hpp"

int main(int argc, char** argv) {
  std::size_t masses = hdae::examples::kChainDefaultMasses;
  if (argc > 2) {
    const std::string_view arg = argv[2];
    const auto [end, ec] = std::from_chars(arg.data(), arg.data() + arg.size(), masses);
    if (ec != std::errc() || end != arg.data() + arg.size() || masses == 0) {
      std::cerr << "hdae-mass-spring-chain: N must be a positive integer, got '" << arg << "'\n";
      return 2;
    }
  }
  hdae::models::MassSpringChain model({.masses = masses});
  const hdae::SimulationOptions options = hdae::examples::mass_spring_chain_options();
  return hdae::examples::run_example(
      "hdae-mass-spring-chain", model, options,
      hdae::examples::output_path(argc, argv, "mass_spring_chain"),
      [masses](const hdae::SimulationResult& r) {
        fmt::print(
            "N = {} masses ({} unknowns, KLU, {} Jacobian colours), energy {:.6g} J -> {:.6g} J\n",
            masses, 3 * masses, r.statistics.jacobian_colors,
            r.table.value(0, r.table.column_index("energy")), r.table.final_value("energy"));
      });
}
