// The bundled examples as runs: each example's model from hdae::models (default parameters,
// as the example programs use them) with the example's options from
// examples/common/example_settings.hpp, the same functions examples/<name>/main.cpp calls, and
// the columns its reference result keeps. Shared by the reference generator
// (tools/make_references/main.cpp, which tightens rel_tol to 1e-10) and the regression tests
// (tests/compare/test_regression.cpp, which run the example's own settings and compare with
// references/<name>.csv). The example programs themselves are compared with their references
// by the ctests "example <name> ... agrees with references/<name>.csv" (tests/CMakeLists.txt).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/example_settings.hpp"
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

/// Masses of the chain in its reference (hdae-mass-spring-chain's default is
/// examples::kChainDefaultMasses = 2000). A disturbance travels along the chain at
/// sqrt(k/m) = 10 masses per second, so in the 10 s of the run only the last ~100 of 2000
/// masses would move and most columns would be constant; with N = 20 every mass takes part,
/// through the same KLU path. The example programs' regression test and scripts/run.sh pass
/// N = 20 on the command line.
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
    r.options = examples::pendulum_options();
    r.make_model = [] { return std::make_unique<models::Pendulum>(); };
    runs.push_back(std::move(r));
  }
  {
    ExampleRun r{.name = "simple_state_events", .signals = {"s", "v", "f"}};
    r.options = examples::simple_state_events_options();
    r.make_model = [] { return std::make_unique<models::SimpleStateEvents>(); };
    runs.push_back(std::move(r));
  }
  {
    ExampleRun r{.name = "bouncing_ball", .signals = {"h", "v"}};
    r.options = examples::bouncing_ball_options();
    r.make_model = [] { return std::make_unique<models::BouncingBall>(); };
    runs.push_back(std::move(r));
  }
  {
    ExampleRun r{.name = "mass_spring_chain",
                 .signals = {"s[1]", "s[10]", "s[20]", "v[20]", "f[1]", "energy"}};
    r.options = examples::mass_spring_chain_options();
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
    r.options = examples::ideal_clutch_options();
    r.make_model = [] { return std::make_unique<models::IdealClutch>(); };
    runs.push_back(std::move(r));
  }
  {
    ExampleRun r{.name = "colliding_masses",
                 .signals = {"s1", "s2", "v1", "v2", "p_int", "momentum", "kinetic_energy"}};
    r.options = examples::colliding_masses_options();
    r.make_model = [] { return std::make_unique<models::CollidingMasses>(); };
    runs.push_back(std::move(r));
  }
  {
    ExampleRun r{.name = "three_masses",
                 .signals = {"s1", "s2", "s3", "v1", "v2", "v3", "p_int1", "p_int2", "momentum",
                             "kinetic_energy"}};
    r.options = examples::three_masses_options();
    r.make_model = [] { return std::make_unique<models::ThreeMasses>(); };
    runs.push_back(std::move(r));
  }
  {
    // The example's default run (start values free; --fixed is not part of the reference).
    ExampleRun r{.name = "pendulum_dae", .signals = {"x", "y", "vx", "vy", "lambda", "energy"}};
    r.options = examples::pendulum_dae_options();
    r.make_model = [] { return std::make_unique<models::PendulumDae>(); };
    runs.push_back(std::move(r));
  }
  {
    ExampleRun r{.name = "free_body_rotation",
                 .signals = {"Q1", "Q2", "Q3", "Q4", "w1", "w2", "w3", "|Q|"}};
    r.options = examples::free_body_rotation_options();
    r.make_model = [] { return std::make_unique<models::FreeBodyRotation>(); };
    runs.push_back(std::move(r));
  }
  {
    ExampleRun r{.name = "hydraulic_actuator", .signals = {"f_p", "f_rel", "p_Rrel", "p_Rin"}};
    r.options = examples::hydraulic_actuator_options();
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
