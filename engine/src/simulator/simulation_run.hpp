// SimulationRun: the loop and the event instants of one hdae::Simulator (hdae/simulator.hpp
// has the algorithm). It orchestrates the layers below it and owns what they work on:
//   model/    ModelCalls: every call into model code, with the phase for failure messages
//   events/   CrossingTable, TimeEventSchedule, EventIteration, ChatteringDetector
//   reinit/   Reinitializer: the jump solve and consistent derivatives, algebraic unknowns
//   results/  RowRecorder handing rows to the sinks (table, CSV and HDF5 files, the user's)
// and collaborators of its own folder: Integration (IDA's life through the run and its
// restarts, through IdaBridge), OutputGrid (the output points), RootLocation (where a step's
// root lies), StructureChange (what a change of unknowns must keep), ContinuationCheck.
// The loop (simulation_run.cpp), the event instants (run_events.cpp), a change of unknowns or
// of the sparsity pattern (run_unknowns.cpp) and the early endings (run_failure.cpp) are
// methods of this class.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "events/chattering.hpp"
#include "events/crossing_table.hpp"
#include "events/event_iteration.hpp"
#include "events/time_event_schedule.hpp"
#include "hdae/options.hpp"
#include "hdae/result.hpp"
#include "hdae/row_sink.hpp"
#include "model/model_calls.hpp"
#include "model/model_in_use.hpp"
#include "reinit/reinitializer.hpp"
#include "results/row_recorder.hpp"
#include "results/run_sinks.hpp"
#include "simulator/continuation_check.hpp"
#include "simulator/integration.hpp"
#include "simulator/output_grid.hpp"
#include "simulator/result_size.hpp"
#include "simulator/root_location.hpp"
#include "simulator/stop_watch.hpp"
#include "simulator/structure_change.hpp"

namespace hdae::detail {

class SimulationRun final : public EventHost {
 public:
  SimulationRun(SimulationModel& model, SimulationOptions options);
  SimulationRun(const SimulationRun&) = delete;
  SimulationRun& operator=(const SimulationRun&) = delete;
  ~SimulationRun() override;

  void add_row_sink(RowSink& sink);
  void add_event_observer(EventObserver& observer);
  const SimulationStatus& initialize();
  /// Where an advance ends: at t, or at the first event instant before t
  /// (Simulator::advance_to_event).
  enum class AdvanceEnd { kAtTarget, kAtEvent };
  const SimulationStatus& advance_to(double t, AdvanceEnd end = AdvanceEnd::kAtTarget);
  SimulationResult take_result();

  [[nodiscard]] const SimulationStatus& status() const { return life_.status; }
  [[nodiscard]] double time() const { return step_.t; }
  [[nodiscard]] std::span<const double> state() const { return u_.x; }
  [[nodiscard]] std::span<const double> derivatives() const { return u_.der_x; }
  [[nodiscard]] const Statistics& statistics() const;
  [[nodiscard]] const std::vector<EventRecord>& events() const { return event_log_.records; }
  [[nodiscard]] const ResultTable& table() const { return output_.sinks.table().table(); }
  [[nodiscard]] const SimulationModel& model() const { return model_.model(); }
  [[nodiscard]] const SimulationOptions& options() const { return options_; }
  /// IDA's error weights for its last step (empty before the first): 1/(rtol |x_i| + atol_i).
  [[nodiscard]] std::vector<double> error_weights() const {
    return integration_.started() ? integration_.integrator().error_weights()
                                  : std::vector<double>{};
  }

  // EventHost
  std::optional<SimulationStatus> make_consistent(double t, bool initial,
                                                  std::span<const std::size_t> impulse_sources,
                                                  std::vector<ImpulseRecord>& impulses) override;
  std::optional<SimulationStatus> stop_due(double t) override;
  void change_unknowns(double t, std::span<const std::size_t> previous) override;
  void change_sparsity(double t) override;

 private:
  enum class Stage { kCreated, kRunning, kEnded };
  /// An IDA step result that lies beyond the caller's last target: processed by a later
  /// advance_to.
  struct PendingStep {
    sundials::StepResult result;
    double t;
    /// A plain step end at which the model asked for an event (SimulationModel::completed_step).
    bool step_event = false;
  };
  /// The unknowns as the model declares them now, and the run's values of them.
  struct RunUnknowns {
    const ModelStructure* structure;  ///< read anew when the model changes its unknowns
    std::size_t n;
    std::vector<RowKind> row_kinds;
    std::vector<double> x;
    std::vector<double> der_x;
    /// What a change of unknowns must keep of the start.
    StructureChange change;
    /// The model declares a sparsity pattern (a new one must replace it: change_sparsity).
    bool has_pattern;
  };
  /// Where the run stands between IDA's steps.
  struct StepState {
    double t = 0.0;  ///< time reached (reported by time())
    std::optional<PendingStep> pending;
    /// x and der_x are behind: IDA's last step end (time step_.t) holds the state.
    bool from_ida = false;
    /// IDA's time when the running step began; empty outside a step.
    std::optional<double> stepping_from;
    /// The model hears of every completed step (SimulationModel::wants_completed_steps).
    bool tell_model = false;
  };
  /// How the last event iteration ended, for what follows it at the same instant.
  struct LastEvent {
    /// How the run ends at the event (terminated by the model, a failure, a stop).
    std::optional<SimulationStatus> ending;
    /// The rows changed (row kinds, rows_changed(), other unknowns).
    bool changed_rows = false;
    /// The rows were only reformulated (EventContext::reformulated).
    bool smooth = false;
  };
  struct RunLife {
    SimulationStatus status;
    Stage stage = Stage::kCreated;
    bool taken = false;        ///< take_result() moved the result out
    double wall_time_s = 0.0;  ///< frozen when the run ends
  };
  /// The events so far and who hears of each.
  struct EventLog {
    std::vector<EventRecord> records;
    std::vector<EventObserver*> observers;
  };
  /// Where the rows go: the recorder hands them to the sinks of the options (the table, the
  /// files) and the user's; the budget bounds what events add to them.
  struct RunOutput {
    RunOutput(ModelCalls& model, const SimulationOptions& options)
        : recorder(model, options),
          budget(options, recorder.columns().size()),
          sinks(options.sinks, model.structure().parameters) {}
    RowRecorder recorder;
    ResultBudget budget;
    RunSinks sinks;
  };
  [[nodiscard]] static RunUnknowns unknowns_at_start(const ModelStructure& s);

  // simulation_run.cpp: set-up
  /// std::logic_error naming call when take_result() ended the run before its end.
  void refuse_after_take(const char* call) const;
  void start_integration();
  void log(LogLevel level, std::string_view message) const;
  // run_loop.cpp: the loop
  void run_until(double target, AdvanceEnd end);
  void advance_until(double target, AdvanceEnd end);
  void take_step();
  /// Stores the rows of the output points the step passed, up to limit.
  void store_output_rows(const PendingStep& step, double limit);
  /// x, der_x and the time from the grid row at g, where the run ends on it.
  void take_grid_row_state(double g);
  /// x, der_x and the time reached from IDA's last return.
  void take_ida_state();
  void step_failed();
  /// kSolverFailure at the time reached, naming what was last not finite (IdaBridge).
  [[nodiscard]] SimulationStatus solver_failure(std::string message);
  /// The model's failure_note at the current state; empty when it throws.
  [[nodiscard]] std::string model_failure_note();
  void too_many_steps();
  /// Ends the run with this status (rows stored before), tells the sinks.
  void finish(SimulationStatus status);
  /// Tells the sinks that the run is over, with its status (an HDF5 file records it); the
  /// first exception of a sink is rethrown after all were told.
  void end_output();
  // run_events.cpp: event instants, restarts
  void process_step(const PendingStep& step);
  /// The event iteration at t; false when it did not settle. last_event_.ending says whether
  /// the run ends.
  bool run_event(double t, EventKind kind);
  /// After a settled time event at t: true when IDA may go on without a restart
  /// (continuation_check.hpp); x and der_x are then the left limits again, which IDA goes on
  /// from.
  bool continues_without_restart(double t, const EventRecord& record);
  void log_event(EventRecord record);
  /// IDA goes on after the event at t (Integration::restart).
  void restart_integrator(double t);
  /// The right limit at t and its mode, as a restart reads them.
  [[nodiscard]] RestartPoint restart_point(double t);
  void store_row(double t) { output_.recorder.store(t, u_.x, u_.der_x); }
  // run_failure.cpp: an exception ends the run
  [[noreturn]] void end_by_exception();
  [[nodiscard]] std::string exception_message() const;
  void keep_last_row(double t);

  /// Claims the model for the run (a second run and set_parameter refuse) until take_result().
  ModelInUse in_use_;
  SimulationOptions options_;
  CrossingTable crossings_;
  ModelCalls model_;
  RunUnknowns u_;
  TimeEventSchedule schedule_;
  RootLocation root_location_;
  StopWatch stop_watch_;
  /// Made anew when the model changes its unknowns.
  std::unique_ptr<reinit::Reinitializer> reinit_;
  EventIteration event_iteration_;
  ChatteringDetector chattering_;
  RunOutput output_;
  EventLog event_log_;
  LastEvent last_event_;
  mutable Statistics statistics_;
  RunLife life_;
  OutputGrid grid_;
  StepState step_;
  ContinuationCheck continuation_;
  Integration integration_;
};

}  // namespace hdae::detail
