// IDA through a run (docs/design.md, "Restarts"): made for the model's unknowns, made anew when
// an event changes them (the counters of the one replaced are kept), and at every restart
// going on as SimulationOptions::restart_step says: from IDA's own first step, from a step its
// history suggests, or at its order with its history shifted to the right limit. The
// unknowns' kinds (algebraic or differential, for IDA's error test and its initial
// conditions) are found by the jump solve's probes and cached until an event changes the rows.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "events/crossing_table.hpp"
#include "hdae/options.hpp"
#include "model/model_calls.hpp"
#include "reinit/reinitializer.hpp"
#include "simulator/ida_bridge.hpp"
#include "simulator/stop_watch.hpp"
#include "sundials/ida_integrator.hpp"

namespace hdae::detail {

/// What a restart reads of the run at the event instant t: the right limit and its mode.
struct RestartPoint {
  double t = 0.0;
  std::span<const double> x;
  std::span<const double> der_x;
  std::span<const RowKind> row_kinds;
  const ModelStructure* structure = nullptr;
  reinit::Reinitializer* reinit = nullptr;
  /// A crossing flipped at the event: a step as long as the last could cross it back unseen.
  bool crossing_flipped = false;
};

class Integration {
 public:
  using Log = std::function<void(LogLevel, std::string_view)>;

  Integration(ModelCalls& model, CrossingTable& crossings, StopWatch& stop,
              const SimulationOptions& options, Log log);
  Integration(const Integration&) = delete;
  Integration& operator=(const Integration&) = delete;

  /// IDA for the model's current unknowns (the first, or after unknowns_changed); the jump
  /// solve's pattern, when it has one, is IDA's too.
  void renew(const ModelStructure& s, const reinit::Reinitializer& reinit);
  /// The model has n unknowns from now on: IDA is made anew at the next restart.
  void unknowns_changed(std::size_t n);
  /// The jump solve's pattern changed (EventContext::sparsity_changed): IDA takes it and
  /// keeps its history; an IDA that is made anew takes it then (renew).
  void pattern_changed(const reinit::Reinitializer& reinit);
  /// An event changed the rows: the unknowns' kinds are found anew at the next restart.
  void rows_changed() { algebraic_.reset(); }
  /// IDA goes on from the right limit at p.t (made anew first when the unknowns changed).
  void restart(const RestartPoint& p);
  /// After an event that only reformulated the rows: IDA goes on at its order with its
  /// history, whose polynomial is the solution on both sides; false when it has none.
  bool continue_smoothly(const RestartPoint& p);

  [[nodiscard]] bool started() const { return ida_ != nullptr; }
  [[nodiscard]] sundials::IdaIntegrator& ida() { return *ida_; }
  [[nodiscard]] const sundials::IdaIntegrator& ida() const { return *ida_; }
  [[nodiscard]] const IdaBridge& bridge() const { return bridge_; }
  /// Summed over the integrators of the run.
  [[nodiscard]] sundials::IdaCounters counters() const;
  [[nodiscard]] double jacobian_time_s() const;

 private:
  /// RestartStep::kKeepOrder with unchanged kinds: IDA at its order from the right limit and
  /// its curvature; false when IDA has no history.
  bool continue_at_order(const RestartPoint& p, double bounded_step);
  /// The first step after a restart (SimulationOptions::restart_step).
  [[nodiscard]] double restart_step(double t) const;
  [[nodiscard]] std::vector<bool> algebraic_unknowns(const RestartPoint& p);
  [[nodiscard]] sundials::IntegratorSetup setup(const ModelStructure& s,
                                                const reinit::Reinitializer& reinit) const;

  ModelCalls& model_;
  StopWatch& stop_;
  const SimulationOptions& options_;
  Log log_;
  IdaBridge bridge_;
  std::optional<std::vector<bool>> algebraic_;  ///< cached until the rows change
  sundials::IdaCounters replaced_counters_;     ///< of the integrators made anew since
  double replaced_jacobian_time_s_ = 0.0;
  bool renew_due_ = false;
  // Last: the integrator holds a reference to bridge_ as its problem.
  std::unique_ptr<sundials::IdaIntegrator> ida_;
};

}  // namespace hdae::detail
