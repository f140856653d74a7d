// The simulator: drives a SimulationModel through IDA, events and re-initialization, one
// advance at a time (docs/design.md, "The simulation loop"; x^-(t) is the left limit, x^+(t)
// the right limit):
//
//   initialize():
//     x^-(t0) = start values
//     event iteration at t0 (on_event with kind kInitial), jump solve -> x^+(t0), der_x^+(t0)
//     store row (t0, x^-(t0)) when the initial event changed x, then row (t0, x^+(t0))
//   advance_to(t):                                  (may be called again with a later t)
//     loop until t, the stop time or the end of the run:
//       one IDA step (never past the next time event or stop_s), roots of the crossings z
//       store a row at every output point the step passed (interpolated)
//       if an event at t_e (a root, a time event) within the step and not after t:
//         store row (t_e, x^-(t_e))
//         event iteration at t_e: passes of on_event + jump solve until no crossing flips
//         at a time event that changed nothing IDA sees: x^+ = x^-, IDA goes on unrestarted
//         store row (t_e, x^+(t_e)), otherwise restart IDA from (x^+, der_x^+)
//     the state at t is interpolated from IDA's last step; IDA itself is not stopped there,
//     so any slicing of [t0, stop_s] into advances gives the rows of one advance, bit for bit
//
// On failure (IDA error, iteration limit, chattering, singular J, failed jump solve) the run
// stops there: the rows and events so far stay, a last row at the failure time is added, and
// the status says why, when and which variables/equations are involved. The cancel flag and
// the wall-clock limit, checked in residual calls, after every IDA step, between output rows
// and after every pass of an event iteration, stop the run the same way. Exceptions thrown by
// model code are caught at the C boundary and rethrown as ModelCallbackError with phase and
// time; a failure of the engine itself (SUNDIALS, memory, a row sink) as EngineError; both
// carry the partial result.
#pragma once

#include <atomic>
#include <memory>
#include <span>
#include <vector>

#include "hdae/model.hpp"
#include "hdae/options.hpp"
#include "hdae/result.hpp"
#include "hdae/row_sink.hpp"

namespace hdae {

namespace detail {
class SimulationRun;
class SensitivityModel;
}  // namespace detail

/// One run of a model, advanced step by step. The model stays the caller's object and must
/// outlive the simulator; the simulator owns x, der_x, the crossing Booleans, row kinds, time
/// events, the result and the statistics.
///
/// The model is in this run from the construction to take_result() or the destruction: a
/// second Simulator (or simulate()) over it meanwhile throws ModelError, also from another
/// thread (model.hpp, SimulationModel::in_simulation). One Simulator is driven by one thread
/// at a time: a call of initialize, advance_to, take_result, add_row_sink or
/// add_event_observer while another is under way in another thread throws std::logic_error
/// ("Simulator is busy in another thread") and leaves the run alone.
///
///   hdae::Simulator sim(model, options);            // validates options and model
///   sim.add_row_sink(my_sink);                      // optional, before initialize()
///   sim.initialize();
///   while (sim.status().outcome == hdae::Outcome::kRunning) sim.advance_to(sim.time() + 0.1);
///   hdae::SimulationResult r = sim.take_result();
class Simulator {
 public:
  /// Claims the model (ModelError when it is already in a run), validates options and the
  /// model's structure (OptionError, ModelError) and resets the model's discrete state
  /// (SimulationModel::reset) when initialize() runs.
  Simulator(SimulationModel& model, SimulationOptions options);
  ~Simulator();
  Simulator(const Simulator&) = delete;
  Simulator& operator=(const Simulator&) = delete;

  /// Adds a receiver of every row (before initialize(); std::logic_error after). The sink must
  /// outlive the simulator's run. The sinks named in SimulationOptions::sinks (the table in
  /// memory, CSV and HDF5 files) are made and added by the simulator itself, before these.
  void add_row_sink(RowSink& sink);
  /// Adds a receiver of every event record (before initialize(); std::logic_error after).
  void add_event_observer(EventObserver& observer);

  /// The event iteration and jump at t0; stores the t0 row(s). Status kRunning when the run
  /// can go on, otherwise how it ended. Called once; advance_to() calls it when needed.
  const SimulationStatus& initialize();
  /// Integrates to t (start_s <= time() <= t <= stop_s; std::invalid_argument otherwise) and
  /// handles every event up to and including t. Returns kRunning while t < stop_s and the run
  /// goes on, kReachedStopTime at stop_s, or how the run ended; once ended, further calls
  /// return the same status without doing anything. After take_result() on a run that had not
  /// ended, advance_to and initialize throw std::logic_error: that run cannot go on.
  const SimulationStatus& advance_to(double t);
  /// As advance_to(t), but returns at the first event instant after time() and before t when
  /// there is one, its event iteration done: time() is then the event's time and state() the
  /// right limits there, for a caller that reports events as they come (an FMU's early return
  /// from fmi3DoStep). Advances of either kind, in any sequence, give the run of one advance.
  const SimulationStatus& advance_to_event(double t);

  /// The run's status; while kRunning, its t is the time reached (time()).
  [[nodiscard]] const SimulationStatus& status() const;
  /// The time the run has reached (start_s before initialize()).
  [[nodiscard]] double time() const;
  /// x(time()) and der_x(time()); after an event at time(), the right limits.
  [[nodiscard]] std::span<const double> state() const;
  [[nodiscard]] std::span<const double> derivatives() const;
  /// Counters so far (IDA's included).
  [[nodiscard]] const Statistics& statistics() const;
  /// The event log so far.
  [[nodiscard]] const std::vector<EventRecord>& events() const;
  /// The rows kept in memory so far (empty unless SimulationOptions::sinks names kMemory).
  [[nodiscard]] const ResultTable& table() const;
  [[nodiscard]] const SimulationModel& model() const;
  [[nodiscard]] const SimulationOptions& options() const;
  /// Moves the result out (table, events, status, statistics); ends the run first (sinks get
  /// end()) when it is still kRunning, with the status left at kRunning. Gives the model free
  /// for another run.
  [[nodiscard]] SimulationResult take_result();

 private:
  /// With SimulationOptions::sensitivities: the model with its sensitivity rows, which the
  /// run integrates (sensitivity/sensitivity_model.hpp); declared first, destroyed last.
  std::unique_ptr<detail::SensitivityModel> sensitivities_;
  std::unique_ptr<detail::SimulationRun> run_;
  /// A call that changes the run is under way (BusyScope in simulator.cpp).
  std::atomic<bool> busy_{false};
};

/// Runs model from options.start_s to options.stop_s: a Simulator advanced to stop_s in one
/// call. Throws OptionError / ModelError for invalid input before integrating.
[[nodiscard]] SimulationResult simulate(SimulationModel& model, const SimulationOptions& options);

}  // namespace hdae
