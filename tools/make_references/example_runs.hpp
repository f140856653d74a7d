// The bundled examples as runs: each example's model from hdae::models with the settings of
// examples/<name>/main.cpp, and the columns its reference result keeps. Shared by the
// reference generator (tools/make_references/main.cpp, which tightens rel_tol to 1e-10) and
// the regression tests (tests/compare/test_regression.cpp, which run the example's own
// settings and compare with references/<name>.csv). Keep in step with examples/.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hdae/model.hpp"
#include "hdae/models/bouncing_ball.hpp"
#include "hdae/models/colliding_masses.hpp"
#include "hdae/models/free_body_rotation.hpp"
#include "hdae/models/hydraulic_actuator.hpp"
#include "hdae/models/ideal_clutch.hpp"
#include "hdae/models/mass_spring_chain.hpp"
#include "hdae/models/pendulum.hpp"
#include "hdae/models/pendulum_dae.hpp"
#include "hdae/models/simple_state_events.hpp"
#include "hdae/models/three_masses.hpp"
#include "hdae/options.hpp"
#include "hdae/result.hpp"

namespace hdae::references {

/// Reference results are computed at this relative tolerance: two orders below the
/// examples' 1e-8, so the reference's own error is negligible against the comparison tube.
inline constexpr double kReferenceRelTol = 1e-10;

/// Masses of the chain in its reference (the example's default N = 2000 would make a large
/// file; N = 20 exercises the same KLU path).
inline constexpr std::size_t kChainMasses = 20;

struct ExampleRun {
  std::string name;                  ///< examples/<name>/, references/<name>.csv
  SimulationOptions options;         ///< as examples/<name>/main.cpp sets them
  std::vector<std::string> signals;  ///< the columns the reference keeps
  std::function<std::unique_ptr<SimulationModel>()> make_model;
};

inline std::vector<ExampleRun> example_runs() {
  std::vector<ExampleRun> runs;
  {
    ExampleRun r{.name = "pendulum", .signals = {"phi", "w"}};
    r.options.stop_s = 10.0;
    r.options.rel_tol = 1e-8;
    r.make_model = [] { return std::make_unique<models::Pendulum>(); };
    runs.push_back(std::move(r));
  }
  {
    ExampleRun r{.name = "simple_state_events", .signals = {"s", "v", "f"}};
    r.options.stop_s = 10.0;
    r.options.output_interval_s = 0.1;
    r.options.rel_tol = 1e-8;
    r.make_model = [] { return std::make_unique<models::SimpleStateEvents>(); };
    runs.push_back(std::move(r));
  }
  {
    ExampleRun r{.name = "bouncing_ball", .signals = {"h", "v"}};
    r.options.stop_s = 3.0;
    r.options.rel_tol = 1e-8;
    r.make_model = [] { return std::make_unique<models::BouncingBall>(); };
    runs.push_back(std::move(r));
  }
  {
    ExampleRun r{.name = "mass_spring_chain",
                 .signals = {"s[1]", "s[10]", "s[20]", "v[20]", "f[1]", "energy"}};
    r.options.stop_s = 10.0;
    r.options.output_interval_s = 0.1;
    r.options.linear_solver = LinearSolverKind::kKlu;
    r.make_model = [] {
      return std::make_unique<models::MassSpringChain>(
          models::MassSpringChainParameters{.masses = kChainMasses});
    };
    runs.push_back(std::move(r));
  }
  // The impulse examples: each starts with (or meets) a Dirac impulse that the jump solve
  // resolves; the default grid of 500 intervals keeps their files small.
  {
    // Speeds, the angular impulse of the clutch (jump of tau_int) and the clutch mode.
    ExampleRun r{.name = "ideal_clutch", .signals = {"w1", "w2", "tau_int", "engaged"}};
    r.options.stop_s = 500.0;
    r.options.rel_tol = 1e-8;
    r.make_model = [] { return std::make_unique<models::IdealClutch>(); };
    runs.push_back(std::move(r));
  }
  {
    ExampleRun r{.name = "colliding_masses",
                 .signals = {"s1", "s2", "v1", "v2", "p_int", "momentum", "kinetic_energy"}};
    r.options.stop_s = 2.0;
    r.options.rel_tol = 1e-8;
    r.make_model = [] { return std::make_unique<models::CollidingMasses>(); };
    runs.push_back(std::move(r));
  }
  {
    ExampleRun r{.name = "three_masses",
                 .signals = {"s1", "s2", "s3", "v1", "v2", "v3", "p_int1", "p_int2", "momentum",
                             "kinetic_energy"}};
    r.options.stop_s = 2.0;
    r.options.rel_tol = 1e-8;
    r.make_model = [] { return std::make_unique<models::ThreeMasses>(); };
    runs.push_back(std::move(r));
  }
  {
    // The example's default run (start values free; --fixed is not part of the reference).
    ExampleRun r{.name = "pendulum_dae", .signals = {"x", "y", "vx", "vy", "lambda", "energy"}};
    r.options.stop_s = 2.0;
    r.options.rel_tol = 1e-8;
    r.make_model = [] { return std::make_unique<models::PendulumDae>(); };
    runs.push_back(std::move(r));
  }
  {
    ExampleRun r{.name = "free_body_rotation",
                 .signals = {"Q1", "Q2", "Q3", "Q4", "w1", "w2", "w3", "|Q|"}};
    r.options.stop_s = 5.0;
    r.options.rel_tol = 1e-8;
    r.make_model = [] { return std::make_unique<models::FreeBodyRotation>(); };
    runs.push_back(std::move(r));
  }
  {
    ExampleRun r{.name = "hydraulic_actuator", .signals = {"f_p", "f_rel", "p_Rrel", "p_Rin"}};
    r.options.stop_s = 10.0;
    r.options.rel_tol = 1e-8;
    r.make_model = [] { return std::make_unique<models::HydraulicActuator>(); };
    runs.push_back(std::move(r));
  }
  return runs;
}

/// The columns `signals` of a result table (units and kinds kept), in that order; throws
/// std::out_of_range naming a missing column.
inline ResultTable keep_columns(const ResultTable& table, const std::vector<std::string>& signals) {
  std::vector<std::size_t> index;
  std::vector<ColumnInfo> columns;
  for (const std::string& name : signals) {
    index.push_back(table.column_index(name));
    columns.push_back(table.columns()[index.back()]);
  }
  ResultTable kept(std::move(columns));
  std::vector<double> values(index.size());
  for (std::size_t i = 0; i < table.num_rows(); ++i) {
    for (std::size_t j = 0; j < index.size(); ++j) values[j] = table.value(i, index[j]);
    kept.append(table.time(i), values);
  }
  return kept;
}

}  // namespace hdae::references
