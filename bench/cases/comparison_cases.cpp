#include "cases/comparison_cases.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "hdae/models/bouncing_ball.hpp"
#include "hdae/models/mass_spring_chain.hpp"
#include "hdae/models/pendulum.hpp"
#include "hdae/simulator.hpp"
#include "models/robertson.hpp"
#include "raw/raw_problems.hpp"
#include "support/child_process.hpp"

namespace hdae::bench {
namespace {

raw::RawSetup base_setup(const SimulationOptions& o, const ModelStructure& s,
                         std::vector<double> id) {
  raw::RawSetup setup;
  setup.n = static_cast<sunindextype>(s.num_unknowns());
  setup.rel_tol = o.rel_tol;
  setup.abs_tol = absolute_tolerances(o, s);
  setup.id = std::move(id);
  setup.suppress_algebraic = o.suppress_algebraic;
  setup.max_steps = o.max_steps_per_interval;
  return setup;
}

raw::GridRunSpec grid_of(const SimulationOptions& o) {
  raw::GridRunSpec spec;
  spec.start_s = o.start_s;
  spec.stop_s = o.stop_s;
  spec.output_interval_s = o.resolved_output_interval_s();
  return spec;
}

class PendulumCase final : public ComparisonCase {
 public:
  PendulumCase() {
    options_.stop_s = 10.0;
    options_.rel_tol = 1e-6;
  }
  [[nodiscard]] std::string name() const override { return "pendulum"; }
  [[nodiscard]] std::string description() const override {
    return "n = 2, dense, 0..10 s, rtol 1e-6, 500 output rows";
  }
  SimulationResult run_hdae() override { return simulate(model_, options_); }
  raw::GridRunResult run_raw(const std::vector<double>& x0,
                             const std::vector<double>& der_x0) override {
    raw::RawPendulum problem;
    raw::RawSetup setup = base_setup(options_, model_.structure(), {1.0, 1.0});
    setup.residual = &raw::RawPendulum::residual;
    setup.user_data = &problem;
    raw::GridRunSpec spec = grid_of(options_);
    spec.outputs = &raw::RawPendulum::outputs;
    spec.num_outputs = 2;
    spec.problem = &problem;
    return raw::run_grid(setup, spec, x0, der_x0);
  }

 private:
  models::Pendulum model_;
  SimulationOptions options_;
};

class RobertsonCase final : public ComparisonCase {
 public:
  explicit RobertsonCase(double stop_s) {
    options_.stop_s = stop_s;
    options_.rel_tol = 1e-4;
  }
  [[nodiscard]] std::string name() const override { return "robertson"; }
  [[nodiscard]] std::string description() const override {
    return fmt::format("n = 3 (index 1, y3 algebraic), dense, 0..{:g} s, rtol 1e-4",
                       options_.stop_s);
  }
  SimulationResult run_hdae() override { return simulate(model_, options_); }
  raw::GridRunResult run_raw(const std::vector<double>& x0,
                             const std::vector<double>& der_x0) override {
    raw::RawRobertson problem;
    raw::RawSetup setup = base_setup(options_, model_.structure(), {1.0, 1.0, 0.0});
    setup.residual = &raw::RawRobertson::residual;
    setup.user_data = &problem;
    return raw::run_grid(setup, grid_of(options_), x0, der_x0);
  }

 private:
  Robertson model_;
  SimulationOptions options_;
};

class ChainCase final : public ComparisonCase {
 public:
  ChainCase(std::size_t masses, double stop_s, LinearSolverKind solver, std::size_t output_points)
      : model_({.masses = masses}), options_(chain_options(stop_s, solver, output_points)) {}
  [[nodiscard]] std::string name() const override { return "mass-spring chain"; }
  [[nodiscard]] std::string description() const override {
    return fmt::format("n = {} ({} masses), {}, 0..{:g} s, rtol 1e-6",
                       3 * model_.parameters().masses, model_.parameters().masses,
                       klu() ? "KLU + coloured FD Jacobian" : "dense", options_.stop_s);
  }
  SimulationResult run_hdae() override { return simulate(model_, options_); }
  raw::GridRunResult run_raw(const std::vector<double>& x0,
                             const std::vector<double>& der_x0) override {
    return run_raw_chain(model_.parameters(), options_,
                         absolute_tolerances(options_, model_.structure()), x0, der_x0);
  }

 private:
  [[nodiscard]] bool klu() const { return options_.linear_solver == LinearSolverKind::kKlu; }

  models::MassSpringChain model_;
  SimulationOptions options_;
};

class ElasticBallCase final : public ComparisonCase {
 public:
  explicit ElasticBallCase(std::size_t impacts)
      : model_({.h0_m = 1.0, .restitution = 1.0, .gravity_mps2 = 9.81, .rest_speed_mps = 0.0}) {
    // First impact after t1 = sqrt(2 h0 / g), then one every 2 t1; stop half a period after
    // the last wanted impact.
    const double t1 = std::sqrt(2.0 * 1.0 / 9.81);
    options_.stop_s = t1 + (static_cast<double>(impacts) - 0.5) * 2.0 * t1;
    options_.rel_tol = 1e-6;
    impacts_ = impacts;
  }
  [[nodiscard]] std::string name() const override { return "elastic bouncing ball"; }
  [[nodiscard]] std::string description() const override {
    return fmt::format("n = 2, dense, e = 1, {} impacts, 0..{:.4g} s, rtol 1e-6, 500 grid rows",
                       impacts_, options_.stop_s);
  }
  SimulationResult run_hdae() override { return simulate(model_, options_); }
  raw::GridRunResult run_raw(const std::vector<double>& x0,
                             const std::vector<double>& der_x0) override {
    raw::RawBall problem{.gravity_mps2 = 9.81};
    raw::RawSetup setup = base_setup(options_, model_.structure(), {1.0, 1.0});
    setup.residual = &raw::RawBall::residual;
    setup.roots = &raw::RawBall::roots;
    setup.root_directions = {1};
    setup.user_data = &problem;
    raw::GridRunSpec spec = grid_of(options_);
    const double g = problem.gravity_mps2;
    spec.on_root = [g, &problem](double /*t*/, double* y, double* yp) {
      problem.set_offset_after_impact(y[0]);
      y[1] = -1.0 * y[1];  // v := -e v with e = 1, as the model writes it
      yp[0] = y[1];
      yp[1] = -g;
    };
    return raw::run_grid(setup, spec, x0, der_x0);
  }

 private:
  models::BouncingBall model_;
  SimulationOptions options_;
  std::size_t impacts_ = 0;
};

}  // namespace

std::vector<double> absolute_tolerances(const SimulationOptions& o, const ModelStructure& s) {
  std::vector<double> atol;
  for (const double nominal : s.variables.nominals()) {
    atol.push_back(o.abs_tol_factor * o.rel_tol * nominal);
  }
  return atol;
}

SimulationOptions chain_options(double stop_s, LinearSolverKind solver, std::size_t output_points) {
  SimulationOptions options;
  options.stop_s = stop_s;
  options.rel_tol = 1e-6;
  options.linear_solver = solver;
  options.output_interval_s = stop_s / static_cast<double>(output_points);
  return options;
}

raw::GridRunResult run_raw_chain(const models::MassSpringChainParameters& p,
                                 const SimulationOptions& options,
                                 const std::vector<double>& abs_tol, const std::vector<double>& x0,
                                 const std::vector<double>& der_x0, bool store_states) {
  raw::RawChain problem{.masses = p.masses,
                        .mass_kg = p.mass_kg,
                        .stiffness_npm = p.stiffness_npm,
                        .damping_nspm = p.damping_nspm};
  raw::RawSetup setup;
  setup.n = static_cast<sunindextype>(3 * p.masses);
  setup.rel_tol = options.rel_tol;
  setup.abs_tol = abs_tol;
  setup.id.assign(3 * p.masses, 1.0);
  for (std::size_t i = 0; i < p.masses; ++i) setup.id[3 * i + 2] = 0.0;  // the spring forces
  setup.suppress_algebraic = options.suppress_algebraic;
  setup.max_steps = options.max_steps_per_interval;
  setup.residual = &raw::RawChain::residual;
  setup.user_data = &problem;
  std::unique_ptr<raw::ColoredJacobian> jacobian;
  if (options.linear_solver == LinearSolverKind::kKlu) {
    jacobian = std::make_unique<raw::ColoredJacobian>(problem.pattern());
    problem.jacobian = jacobian.get();
    setup.colored = jacobian.get();
    setup.jacobian_fn = &raw::colored_jacobian_fn<raw::RawChain>;
  }
  raw::GridRunSpec spec = grid_of(options);
  spec.outputs = &raw::RawChain::outputs;
  spec.num_outputs = 1;
  spec.problem = &problem;
  spec.store_states = store_states;
  return raw::run_grid(setup, spec, x0, der_x0);
}

ChainStart chain_start(std::size_t masses, const SimulationOptions& options) {
  const ChildOutcome out = run_in_child([&] {
    models::MassSpringChain model({.masses = masses});
    SimulationOptions first = options;
    first.stop_s = options.start_s + 1e-3 * (options.stop_s - options.start_s);
    first.output_interval_s = first.stop_s - first.start_s;
    first.record_columns.clear();
    first.record_kinds = {ColumnKind::kState, ColumnKind::kDerivative};
    const SimulationResult r = simulate(model, first);
    if (!r.status.ok()) throw std::runtime_error(r.status.message);
    ChainStart d;
    state_of_row(r, 0, d.x0, d.der_x0);
    d.abs_tol = absolute_tolerances(options, model.structure());
    std::vector<char> bytes;
    for (const auto* v : {&d.x0, &d.der_x0, &d.abs_tol}) {
      const auto* p = reinterpret_cast<const char*>(v->data());
      bytes.insert(bytes.end(), p, p + v->size() * sizeof(double));
    }
    return bytes;
  });
  const std::size_t n = 3 * masses;
  if (out.bytes.size() != 3 * n * sizeof(double)) {
    throw std::runtime_error("chain_start: the child returned a short start state");
  }
  ChainStart d;
  for (std::size_t k = 0; k < 3; ++k) {
    std::vector<double>& v = k == 0 ? d.x0 : k == 1 ? d.der_x0 : d.abs_tol;
    v.resize(n);
    std::memcpy(v.data(), out.bytes.data() + k * n * sizeof(double), n * sizeof(double));
  }
  return d;
}

SolverCounts SolverCounts::from(const Statistics& s) {
  return {.steps = s.steps,
          .residuals = s.residual_evaluations - s.jacobian_residual_evaluations,
          .jacobian_residuals = s.jacobian_residual_evaluations,
          .jacobians = s.jacobian_evaluations,
          .error_test_failures = s.error_test_failures,
          .convergence_failures = s.convergence_failures,
          .root_evaluations = s.root_function_evaluations};
}

SolverCounts SolverCounts::from(const raw::RawCounters& c) {
  return {.steps = c.steps,
          .residuals = c.residual_evaluations,
          .jacobian_residuals = c.jacobian_residual_evaluations,
          .jacobians = c.jacobian_evaluations,
          .error_test_failures = c.error_test_failures,
          .convergence_failures = c.convergence_failures,
          .root_evaluations = c.root_evaluations};
}

std::unique_ptr<ComparisonCase> make_pendulum_case() { return std::make_unique<PendulumCase>(); }

std::unique_ptr<ComparisonCase> make_robertson_case(double stop_s) {
  return std::make_unique<RobertsonCase>(stop_s);
}

std::unique_ptr<ComparisonCase> make_chain_case(std::size_t masses, double stop_s,
                                                LinearSolverKind solver,
                                                std::size_t output_points) {
  return std::make_unique<ChainCase>(masses, stop_s, solver, output_points);
}

std::unique_ptr<ComparisonCase> make_elastic_ball_case(std::size_t impacts) {
  return std::make_unique<ElasticBallCase>(impacts);
}

void state_of_row(const SimulationResult& result, std::size_t row, std::vector<double>& x,
                  std::vector<double>& der_x) {
  const std::span<const double> values = result.table.row(row);
  std::size_t states = 0;
  for (const ColumnInfo& c : result.table.columns()) {
    if (c.kind == ColumnKind::kState) ++states;
  }
  x.assign(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(states));
  der_x.assign(values.begin() + static_cast<std::ptrdiff_t>(states),
               values.begin() + static_cast<std::ptrdiff_t>(2 * states));
}

double max_relative_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0.0;
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    const double scale = std::max({std::abs(a[i]), std::abs(b[i]), 1e-300});
    worst = std::max(worst, std::abs(a[i] - b[i]) / scale);
  }
  return worst;
}

}  // namespace hdae::bench
