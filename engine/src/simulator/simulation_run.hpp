// SimulationRun: the state and the loop of one hdae::Simulator (hdae/simulator.hpp has the
// algorithm). It orchestrates the layers below it and owns what they work on:
//   model/    ModelCalls: every call into model code, with the phase for failure messages
//   events/   CrossingTable, TimeEventSchedule, EventIteration, ChatteringDetector
//   reinit/   Reinitializer: the jump solve and consistent derivatives, algebraic unknowns
//   sundials/ IdaIntegrator, driven one step at a time through IdaBridge (the residual path)
//   results/  RowRecorder handing rows to the sinks (table, CSV stream, the user's)
// The loop (simulation_run.cpp), the event instants (run_events.cpp), a change of unknowns
// (run_unknowns.cpp) and the early endings (run_failure.cpp) are methods of this class.
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
#include "simulator/continuation_check.hpp"
#include "simulator/integration.hpp"
#include "simulator/output_grid.hpp"
#include "simulator/result_size.hpp"
#include "simulator/root_location.hpp"
#include "simulator/stop_watch.hpp"

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
  const SimulationStatus& advance_to(double t);
  SimulationResult take_result();

  [[nodiscard]] const SimulationStatus& status() const { return status_; }
  [[nodiscard]] double time() const { return t_; }
  [[nodiscard]] std::span<const double> state() const { return x_; }
  [[nodiscard]] std::span<const double> derivatives() const { return der_x_; }
  [[nodiscard]] const Statistics& statistics() const;
  [[nodiscard]] const std::vector<EventRecord>& events() const { return events_; }
  [[nodiscard]] const ResultTable& table() const { return table_.table(); }
  [[nodiscard]] const SimulationModel& model() const { return model_.model(); }
  [[nodiscard]] const SimulationOptions& options() const { return options_; }
  /// IDA's error weights for its last step (empty before the first): 1/(rtol |x_i| + atol_i).
  [[nodiscard]] std::vector<double> error_weights() const {
    return integration_.started() ? integration_.ida().error_weights() : std::vector<double>{};
  }

  // EventHost
  std::optional<SimulationStatus> make_consistent(double t, bool initial,
                                                  std::span<const std::size_t> impulse_sources,
                                                  std::vector<ImpulseRecord>& impulses) override;
  std::optional<SimulationStatus> stop_due(double t) override;
  void change_unknowns(double t, std::span<const std::size_t> previous) override;

 private:
  enum class Stage { kCreated, kRunning, kEnded };
  /// An IDA step result that lies beyond the caller's last target: processed by a later
  /// advance_to.
  struct PendingStep {
    sundials::StepResult result;
    double t;
  };

  // simulation_run.cpp: set-up
  /// std::logic_error naming call when take_result() ended the run before its end.
  void refuse_after_take(const char* call) const;
  void start_integration();
  void log(LogLevel level, std::string_view message) const;
  // run_loop.cpp: the loop
  void run_until(double target);
  void advance_until(double target);
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
  // run_events.cpp: event instants, restarts
  void process_step(const PendingStep& step);
  /// The event iteration at t; false when it did not settle. ending_ says whether the run ends.
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
  void store_row(double t) { recorder_.store(t, x_, der_x_); }
  // run_unknowns.cpp: a change of unknowns at an event
  /// ModelError unless the model's new structure can take over from the run's at t.
  void check_new_structure(double t, std::span<const std::size_t> previous,
                           std::size_t before) const;
  // run_failure.cpp: an exception ends the run
  [[noreturn]] void end_by_exception();
  [[nodiscard]] std::string exception_message() const;
  void keep_last_row(double t);

  /// Claims the model for the run (a second run and set_parameter refuse) until take_result().
  ModelInUse in_use_;
  SimulationOptions options_;
  CrossingTable crossings_;
  ModelCalls model_;
  /// The model's structure, read anew when the model changes its unknowns.
  const ModelStructure* structure_;
  std::size_t n_;
  std::vector<RowKind> row_kinds_;
  TimeEventSchedule schedule_;
  std::vector<double> x_;
  std::vector<double> der_x_;
  RootLocation root_location_;
  StopWatch stop_watch_;
  /// Made anew when the model changes its unknowns.
  std::unique_ptr<reinit::Reinitializer> reinit_;
  EventIteration event_iteration_;
  ChatteringDetector chattering_;
  RowRecorder recorder_;
  ResultBudget budget_;
  TableSink table_;
  std::unique_ptr<CsvSink> csv_;
  std::vector<EventObserver*> observers_;
  std::vector<EventRecord> events_;
  SimulationStatus status_;
  /// How the run ends at the current event (terminated by the model, a failure, a stop).
  std::optional<SimulationStatus> ending_;
  /// The last event iteration changed row kinds or the model said rows_changed().
  bool event_changed_rows_ = false;
  /// The last event iteration only reformulated the rows (EventContext::reformulated).
  bool event_smooth_ = false;
  mutable Statistics statistics_;
  /// The run's crossings and time events, which a change of unknowns must keep.
  std::vector<CrossingInfo> crossing_infos_;
  std::vector<TimeEventInfo> time_event_infos_;

  double wall_time_s_ = 0.0;  ///< frozen when the run ends
  Stage stage_ = Stage::kCreated;
  bool taken_ = false;           ///< take_result() moved the result out
  double t_ = 0.0;               ///< time reached (reported by time())
  OutputGrid grid_;
  std::optional<PendingStep> pending_;
  /// x_ and der_x_ are behind: IDA's last step end (time t_) holds the state.
  bool state_from_ida_ = false;
  /// IDA's time when the running step began; empty outside a step.
  std::optional<double> stepping_from_;
  ContinuationCheck continuation_;
  Integration integration_;
};

}  // namespace hdae::detail
