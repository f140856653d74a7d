// Run: the mutable state of one simulate() call and the algorithm of simulator.hpp. The
// model stays the user's object; x, der_x, crossing Booleans, row kinds, time events, the
// result and the statistics live here. Event handling is in events/event_iteration.cpp,
// the integration loop in simulator/run.cpp, early endings (stop requests at events, model
// exceptions) in simulator/run_failure.cpp.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "events/chattering.hpp"
#include "events/crossing_table.hpp"
#include "hdae/csv.hpp"
#include "hdae/model.hpp"
#include "hdae/options.hpp"
#include "hdae/result.hpp"
#include "model/sparsity_pattern.hpp"
#include "reinit/jump_solver.hpp"
#include "reinit/workspace.hpp"
#include "sundials/ida_integrator.hpp"

namespace hdae::detail {

class Run final : public sundials::IdaProblem {
 public:
  Run(SimulationModel& model, const SimulationOptions& options);
  SimulationResult execute();

  // IdaProblem
  int residual(double t, std::span<const double> y, std::span<const double> yp,
               std::span<double> r) override;
  int roots(double t, std::span<const double> y, std::span<const double> yp,
            std::span<double> g) override;
  void jacobian(double t, double cj, std::span<const double> y, std::span<const double> yp,
                JacobianEntries& entries) override;

 private:
  /// Where model code is being called; attached to exceptions the model throws.
  enum class Phase {
    kInitialization,   ///< SimulationModel::reset
    kIntegration,      ///< evaluate() for IDA (residuals, crossings) and at its restarts
    kEventEvaluation,  ///< evaluate() at an event instant (crossing Booleans updated)
    kEventHandler,     ///< SimulationModel::on_event
    kJumpSolve,        ///< evaluate() in the jump solve and the consistent derivatives
    kOutput,           ///< evaluate() with outputs, when a row is stored
  };
  /// How the passes of one event iteration ended.
  enum class PassesEnd { kSettled, kFailed, kStopped };

  void evaluate(double t, std::span<const double> x, std::span<const double> der_x,
                std::span<double> r, std::span<double> w, EvaluationPhase phase) {
    Evaluation e(t, x, der_x, r, w, &crossings_, phase);
    model_.evaluate(e);
  }
  void store_row(double t);
  void finish_statistics();
  void integrate();
  /// Event iteration at t (DESIGN.md section 2); false when the run must stop.
  bool event_iteration(double t, EventKind kind);
  /// The passes of the event iteration; fills record's crossings, time events, iterations.
  PassesEnd event_passes(double t, EventKind kind, EventRecord& record);
  /// Jump solve and consistent derivatives for the current mode; false on failure.
  bool make_consistent(double t, reinit::FixedValues fixed);
  [[nodiscard]] reinit::JumpProblem jump_problem(double t, reinit::FixedValues fixed);
  /// Newton tolerance of the jump solve (nominal-scaled max-norm); also the threshold below
  /// which a change of x at an event is round-off and not logged as a jump.
  [[nodiscard]] double jump_tolerance() const;
  [[nodiscard]] std::vector<bool> algebraic_flags(double t);
  void restart_integrator(double t);
  void fail(Outcome outcome, double t, std::string message);
  /// How often poll_stop reads the clock for the wall-clock limit.
  enum class ClockRead { kEvery64thCall, kNow };
  /// Checks the cancel flag and the wall-clock limit; records why in stop_request_. Called on
  /// every residual call, so the common case (neither is set) is decided inline.
  bool stop_requested() { return watch_stop_ && poll_stop(ClockRead::kEvery64thCall); }
  /// The same, reading the clock on every call (once per event-iteration pass, which costs
  /// far more than a clock read).
  bool stop_due_now() { return watch_stop_ && poll_stop(ClockRead::kNow); }
  bool poll_stop(ClockRead clock);
  /// "interrupted at t = ..." or "wall-clock limit of ... s reached at t = ...".
  [[nodiscard]] std::string stop_message(double t) const;
  /// "model '<name>' failed in <phase> at t = <t>: <what>" for the exception being handled.
  [[nodiscard]] std::string failure_message() const;
  /// Ends the run on the exception being handled: keeps the rows, a last row and the
  /// statistics, and throws ModelCallbackError with the original nested.
  [[noreturn]] void rethrow_as_callback_error();
  /// The last row of a run a model exception ended (see README "When things go wrong").
  void keep_last_row();
  /// Appends x_ and der_x_ at t with NaN outputs (the model cannot evaluate them there).
  void append_row_without_outputs(double t);
  /// Records which residuals, crossing values and variables are not finite at t.
  void note_non_finite(double t, std::span<const double> y, std::span<const double> yp,
                       std::span<const double> r);
  /// Names the equations whose residual, the crossings whose value and the variables whose
  /// value was not finite at the last such call ("" when none was).
  [[nodiscard]] std::string non_finite_report() const;
  [[nodiscard]] double next_time_event() const;
  /// Marks time events due at t as fired (and unschedules them); true if any.
  bool collect_due_time_events(double t);
  void log(LogLevel level, const std::string& message) const;
  /// Whether two times are the same instant: IDA places tout and tstop to within its time
  /// round-off, 100 u max(|t|, |h|), and 1000 u max(|a|, |b|, 1) covers that.
  [[nodiscard]] static bool same_time(double a, double b) {
    const double scale = std::max(std::max(std::abs(a), std::abs(b)), 1.0);
    return std::abs(a - b) <= 1000.0 * std::numeric_limits<double>::epsilon() * scale;
  }
  [[nodiscard]] std::string mode_description() const;

  SimulationModel& model_;
  const SimulationOptions& options_;
  const ModelStructure& structure_;
  std::size_t n_;
  CrossingTable crossings_;
  std::vector<RowKind> row_kinds_;
  std::vector<double> time_event_times_;
  std::unique_ptr<bool[]> time_events_fired_;
  std::vector<double> x_;
  std::vector<double> der_x_;
  std::vector<double> r_;
  std::vector<double> w_;
  std::vector<double> row_buffer_;
  std::vector<double> scratch_r_;
  std::optional<SparsityPattern> pattern_;
  std::optional<std::vector<bool>> algebraic_;  ///< cached until the row kinds change
  /// Pattern, KLU ordering and pivot order shared by every jump solve and consistent
  /// derivative solve of this run (reinit/workspace.hpp).
  reinit::Workspace reinit_workspace_;
  SimulationResult result_;
  ChatteringDetector chattering_;
  bool finished_ = false;
  std::optional<Outcome> stop_request_;  ///< kInterrupted or kWallClockLimit, once noticed
  std::chrono::steady_clock::time_point wall_start_;
  bool watch_stop_ = false;  ///< a cancel flag or a wall-clock limit was given
  unsigned residual_calls_ = 0;
  double non_finite_t_ = 0.0;
  std::vector<std::size_t> non_finite_rows_;
  std::vector<std::size_t> non_finite_crossings_;
  std::vector<std::size_t> non_finite_vars_;
  std::unique_ptr<CsvStreamWriter> stream_;
  Phase phase_ = Phase::kInitialization;
  double phase_t_ = 0.0;
  /// IDA's time when the running advance() began; empty outside advance().
  std::optional<double> advancing_from_;
  // Last: the integrator holds a reference to this object as its problem.
  std::unique_ptr<sundials::IdaIntegrator> ida_;
};

}  // namespace hdae::detail
