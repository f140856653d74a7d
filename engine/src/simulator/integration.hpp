// The integrator through a run (docs/design.md, "Restarts", "Integrators"): IDA, or for a mode
// that is an explicit ODE CVODE or ARKODE as SimulationOptions::method says, made for the
// model's unknowns, made anew when an event changes them or the mode calls for another method
// (the counters of the one replaced are kept), and at every restart
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
#include "simulator/explicit_form.hpp"
#include "simulator/ida_bridge.hpp"
#include "simulator/ode_bridge.hpp"
#include "simulator/stiffness_check.hpp"
#include "simulator/stop_watch.hpp"
#include "sundials/integrator.hpp"
#include "sundials/ode_integrator.hpp"

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

  /// An integrator for the model's current unknowns is made at the next restart (the first,
  /// or after unknowns_changed); the jump solve's pattern, when it has one, is IDA's too.
  void renew();
  /// The model has n unknowns from now on: IDA is made anew at the next restart.
  void unknowns_changed(std::size_t n);
  /// The jump solve's pattern changed (EventContext::sparsity_changed): IDA takes it and
  /// keeps its history; an IDA that is made anew takes it then (renew).
  void pattern_changed(const reinit::Reinitializer& reinit);
  /// An event changed the rows: the unknowns' kinds, and whether the mode is an explicit ODE,
  /// are found anew at the next restart.
  void rows_changed() {
    algebraic_.reset();
    form_checked_ = false;
  }
  /// IDA goes on from the right limit at p.t (made anew first when the unknowns changed).
  void restart(const RestartPoint& p);
  /// Under IntegrationMethod::kAuto, after a step that ended without an event: moves an
  /// explicit ODE between the explicit pair and CVODE's BDF when the stiffness check says so
  /// (stiffness_check.hpp), the new integrator started at the step's end. True when it did.
  bool follow_stiffness();
  /// After an event that only reformulated the rows: IDA goes on at its order with its
  /// history, whose polynomial is the solution on both sides; false when it has none.
  bool continue_smoothly(const RestartPoint& p);

  [[nodiscard]] bool started() const { return integrator_ != nullptr; }
  [[nodiscard]] sundials::Integrator& integrator() { return *integrator_; }
  [[nodiscard]] const sundials::Integrator& integrator() const { return *integrator_; }
  /// The method of the integrator in use: "ida", "cvode-adams", "cvode-bdf", "arkode-erk".
  [[nodiscard]] const char* method_name() const;
  /// Times a run under IntegrationMethod::kAuto moved between IDA, ERK and BDF.
  [[nodiscard]] long method_switches() const { return method_switches_; }
  [[nodiscard]] const IdaBridge& bridge() const { return bridge_; }
  /// Summed over the integrators of the run.
  [[nodiscard]] sundials::IntegratorCounters counters() const;
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
  /// The integrator the mode at p asks for, made when it is not the one in use.
  void choose_integrator(const RestartPoint& p);
  /// The method for the mode at p: IDA (empty), or the ODE method of SimulationOptions::method
  /// when the mode is an explicit ODE; a model failure naming the row when it must be one.
  [[nodiscard]] std::optional<sundials::OdeMethod> method_for(const RestartPoint& p);
  void make_integrator(std::optional<sundials::OdeMethod> method, const RestartPoint& p);
  /// The integrator of a stiff explicit ODE under kAuto: CVODE's BDF, or IDA with KLU on the
  /// sparse path (empty).
  [[nodiscard]] std::optional<sundials::OdeMethod> stiff_method() const;
  /// Starts the integrator of next at the current step's end (follow_stiffness).
  void switch_to(sundials::OdeMethod next, double rho);

  ModelCalls& model_;
  CrossingTable& crossings_;
  StopWatch& stop_;
  const SimulationOptions& options_;
  Log log_;
  IdaBridge bridge_;
  OdeBridge ode_bridge_;
  std::optional<std::vector<bool>> algebraic_;  ///< cached until the rows change
  bool form_checked_ = false;                   ///< method_ fits the mode; until the rows change
  sundials::IntegratorCounters replaced_counters_;  ///< of the integrators made anew since
  double replaced_jacobian_time_s_ = 0.0;
  bool renew_due_ = true;
  std::optional<sundials::OdeMethod> method_;  ///< of integrator_: empty for IDA
  StiffnessCheck stiffness_;
  bool stiff_on_ida_ = false;  ///< an explicit ODE on IDA because it is stiff (stiff_method)
  double erk_boundary_ = 0.0;  ///< erk_stability_boundary at the run's rel_tol, once known
  /// What the last restart was given, for an integrator made at a step's end.
  const ModelStructure* structure_ = nullptr;
  reinit::Reinitializer* reinit_ = nullptr;
  long method_switches_ = 0;
  // Last: the integrator holds a reference to a bridge as its problem.
  std::unique_ptr<sundials::Integrator> integrator_;
};

}  // namespace hdae::detail
