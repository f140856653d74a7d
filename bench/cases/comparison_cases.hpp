// The problems hdae is compared with raw IDA on (docs/benchmarks.md, "Overhead"): each case
// holds the hdae model with its options and the raw-IDA program for the same initial value
// problem (same tolerances, output grid, linear solver and Jacobian), so that IDA's counters
// of the two runs must be identical and only the wall time may differ.
//
// The raw run starts from the state hdae's initialization produced (the first result row,
// x and der(x) columns): hdae's consistent-derivative computation is part of what hdae
// costs, but both programs integrate exactly the same problem.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "hdae/models/mass_spring_chain.hpp"
#include "hdae/options.hpp"
#include "hdae/result.hpp"
#include "raw/grid_run.hpp"

namespace hdae::bench {

/// IDA's counters as both programs report them.
struct SolverCounts {
  long steps = 0;
  long residuals = 0;           ///< IDA's own residual calls (nre)
  long jacobian_residuals = 0;  ///< residual calls for difference-quotient Jacobians
  long jacobians = 0;           ///< nje
  long error_test_failures = 0;
  long convergence_failures = 0;
  long root_evaluations = 0;

  static SolverCounts from(const Statistics& s);
  static SolverCounts from(const raw::RawCounters& c);
  bool operator==(const SolverCounts&) const = default;
};

class ComparisonCase {
 public:
  virtual ~ComparisonCase() = default;
  /// Short name for tables, e.g. "pendulum".
  [[nodiscard]] virtual std::string name() const = 0;
  /// Size, solver and span, e.g. "n = 2, dense, 0..10 s, rtol 1e-6".
  [[nodiscard]] virtual std::string description() const = 0;
  [[nodiscard]] virtual SimulationResult run_hdae() = 0;
  [[nodiscard]] virtual raw::GridRunResult run_raw(const std::vector<double>& x0,
                                                   const std::vector<double>& der_x0) = 0;
};

/// hdae::models::Pendulum (ODE form, dense), to 10 s at rel_tol 1e-6.
[[nodiscard]] std::unique_ptr<ComparisonCase> make_pendulum_case();
/// bench/models/robertson.hpp (index 1, dense), to stop_s at rel_tol 1e-4.
[[nodiscard]] std::unique_ptr<ComparisonCase> make_robertson_case(double stop_s);
/// hdae::models::MassSpringChain with the given solver (kKlu or kDense), to stop_s.
[[nodiscard]] std::unique_ptr<ComparisonCase> make_chain_case(std::size_t masses, double stop_s,
                                                              LinearSolverKind solver,
                                                              std::size_t output_points);
/// hdae::models::BouncingBall with restitution 1 (elastic, no rest rule), run long enough
/// for the given number of impacts.
[[nodiscard]] std::unique_ptr<ComparisonCase> make_elastic_ball_case(std::size_t impacts);

/// Options of the chain runs: rel_tol 1e-6, the given solver, output_points rows after t0.
[[nodiscard]] SimulationOptions chain_options(double stop_s, LinearSolverKind solver,
                                              std::size_t output_points);
/// The raw-IDA chain run (KLU with the coloured Jacobian when options.linear_solver is kKlu,
/// dense otherwise) with the given absolute tolerances, from (x0, der_x0). Its rows hold t, y,
/// y' and the energy, or t and the energy only when store_states is false.
[[nodiscard]] raw::GridRunResult run_raw_chain(const models::MassSpringChainParameters& p,
                                               const SimulationOptions& options,
                                               const std::vector<double>& abs_tol,
                                               const std::vector<double>& x0,
                                               const std::vector<double>& der_x0,
                                               bool store_states = true);
/// What a raw chain run starts from: x0, der_x0 (hdae's first result row, after its
/// consistent initialization) and the absolute tolerances hdae uses, n = 3 masses values each.
struct ChainStart {
  std::vector<double> x0, der_x0, abs_tol;
};
/// The chain's ChainStart under these options, computed by hdae in a child process (so the
/// caller's memory stays free of the model's).
[[nodiscard]] ChainStart chain_start(std::size_t masses, const SimulationOptions& options);
/// atol_i = abs_tol_factor * rel_tol * nominal_i, evaluated as the engine does.
[[nodiscard]] std::vector<double> absolute_tolerances(const SimulationOptions& o,
                                                      const ModelStructure& s);

/// x (the first n values) and der_x (the next n) of row `row` of an hdae result.
void state_of_row(const SimulationResult& result, std::size_t row, std::vector<double>& x,
                  std::vector<double>& der_x);

/// Largest |a_i - b_i| / max(|a_i|, |b_i|, 1e-300) over the final states.
[[nodiscard]] double max_relative_difference(const std::vector<double>& a,
                                             const std::vector<double>& b);

}  // namespace hdae::bench
