// The event iteration at one instant t_e (docs/design.md, "The event loop"):
//
//   x^- = the state at t_e (the start values at t0)
//   repeat (at most max_passes passes):
//     evaluate at t_e with the crossing Booleans following their values; note flips
//     model's on_event: modes, row kinds, x overwrites, time events, termination
//     (other unknowns or another sparsity pattern: the owner takes them at once)
//     make consistent (the owner's jump solve): x^+ over the Dirac impulses, der_x^+
//     time events scheduled for t_e itself fire in the next pass
//   while a crossing flipped or the model asked for another pass
//   (the last pass re-checks the crossings after the final jump and does not call on_event)
//
// The iteration works on state its owner keeps (EventState) and asks the owner for what lies
// above this layer (EventHost): the jump solve of the re-initialization and whether the run
// must stop now. It fills the event's EventRecord: crossings that flipped, time events that
// fired, passes, the variables that jumped, and a note when the event ended the run.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "events/crossing_table.hpp"
#include "events/time_event_schedule.hpp"
#include "hdae/result.hpp"
#include "hdae/status.hpp"
#include "model/model_calls.hpp"

namespace hdae::detail {

/// What the event iteration needs from its owner.
class EventHost {
 public:
  virtual ~EventHost() = default;
  /// Makes x and der_x consistent with the current mode at t (ITI paper eq. 8); initial:
  /// the jump at t0, where fixed start values are kept. impulse_sources: the variables the
  /// model marked as carrying a Dirac impulse in this pass (EventContext::impulse); the
  /// integrals found are appended to impulses. A failure comes back as a status.
  virtual std::optional<SimulationStatus> make_consistent(
      double t, bool initial, std::span<const std::size_t> impulse_sources,
      std::vector<ImpulseRecord>& impulses) = 0;
  /// A stop request (cancel flag, wall-clock limit) due now, as a status.
  virtual std::optional<SimulationStatus> stop_due(double t) = 0;
  /// The model declared other unknowns at t (EventContext::unknowns_changed): x, der_x and the
  /// row kinds become the new structure's, new unknown j carrying the values of unknown
  /// previous[j] before (or starting at its declared start values). ModelError when the new
  /// structure cannot go on from the old one.
  virtual void change_unknowns(double t, std::span<const std::size_t> previous) = 0;
  /// The model replaced its sparsity pattern at t (EventContext::sparsity_changed): the jump
  /// solve of this pass and IDA use the new one. ModelError when it cannot replace the old.
  virtual void change_sparsity(double t) = 0;
};

/// The state the event iteration reads and changes, owned by the simulator.
struct EventState {
  ModelCalls& model;
  CrossingTable& crossings;
  std::vector<RowKind>& row_kinds;
  TimeEventSchedule& schedule;
  std::vector<double>& x;
  std::vector<double>& der_x;
};

struct EventSettings {
  int max_passes = 20;
  /// Below this change, relative to max(nominal, |x^-|), a variable is not logged as jumping
  /// (the jump solve's own tolerance).
  double jump_tolerance = 1e-9;
};

/// How an event iteration ended.
struct EventOutcome {
  EventRecord record;
  /// Set when the run ends at this event: stopped by the model, a failure or a stop request.
  std::optional<SimulationStatus> end;
  /// True when the iteration settled (end may still say the model terminated the run).
  bool settled = false;
  /// The rows changed (EventContext::rows_changed, set_row_kind, or a reformulation that came
  /// with other changes): the state is made consistent with them and IDA restarts.
  bool row_kinds_changed = false;
  /// The model declared other unknowns (EventContext::unknowns_changed): IDA starts afresh.
  bool unknowns_changed = false;
  /// The event only reformulated the rows (EventContext::reformulated): no value, row kind or
  /// impulse changed, no jump solve was made, and IDA may go on with its history.
  bool smooth = false;
};

class EventIteration {
 public:
  EventIteration(EventState state, EventSettings settings, EventHost& host)
      : state_(state), settings_(settings), host_(host) {}

  /// Runs the iteration at t into out (fresh). When model code throws, the exception travels
  /// on and out holds the event as far as it got.
  void run(double t, EventKind kind, EventOutcome& out);

 private:
  enum class PassesEnd { kSettled, kFailed, kStopped };
  /// Whether the event only reformulates the rows (EventContext::reformulated): then the state
  /// before it holds the new rows, and there is nothing for a jump solve to do.
  struct SmoothEvent {
    bool possible = true;  ///< nothing but reformulations so far (never at t0)
    bool reformulated = false;
    std::vector<double> x_before;  ///< x before the pass's handler
    /// After a pass's handler: true while the event is a reformulation and nothing else.
    bool after(const EventRequests& requests, const std::vector<double>& x,
               const EventRecord& record);
  };
  PassesEnd passes(double t, EventKind kind, EventOutcome& out);
  /// The state after a pass's handler made consistent as the requests say: nothing for a
  /// reformulation, the impulses recorded when the model integrated its impact itself, the
  /// owner's jump solve otherwise. False when that failed (out.end says why).
  bool make_consistent(double t, EventKind kind, const EventRequests& requests, EventOutcome& out);
  /// One evaluation at t with the Booleans following the values; records flips.
  void evaluate_pass(double t, EventKind kind, int pass, EventOutcome& out);
  /// Throws (as a model failure) naming an equation handle beyond the rows written at t0.
  void check_residual_pad(double t);
  /// Throws (as a model failure) when a crossing was used other than once at t0.
  void check_crossing_uses(double t);
  /// Throws (as a model failure) naming a crossing whose value is not finite at t.
  void check_crossing_values(double t);
  /// The host's change of unknowns, x^- of the event renumbered with it.
  void change_unknowns(double t, const std::vector<std::size_t>& previous, EventOutcome& out);
  /// The variables whose x^+ differs from x^- beyond the jump tolerance (unknowns that came
  /// with a change of unknowns have no x^-).
  void record_jumps(EventRecord& record) const;

  /// Fills the watched pad after the residual rows at t0 (a NaN no arithmetic produces).
  static const double kPadSentinel;

  EventState state_;
  EventSettings settings_;
  EventHost& host_;
  std::vector<std::vector<char>> history_;  ///< Booleans per pass of every crossing
  std::vector<double> x_before_;            ///< x^- of the running event, in the current unknowns
  /// After a change of unknowns in the running event: per current unknown, whether it has an
  /// x^- (empty: all have).
  std::vector<char> has_before_;
  std::vector<double> scratch_r_;
};

}  // namespace hdae::detail
