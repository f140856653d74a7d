// What a model sees and may change at an event instant (SimulationModel::on_event,
// hdae/model.hpp): the state, the crossings' Booleans and the time events that fired, and the
// requests it makes (modes, row kinds, re-initialization, impulses, other unknowns, another
// sparsity pattern, time events, termination), which the event iteration applies after each
// pass (docs/design.md, "The event loop").
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "hdae/declarations.hpp"

namespace hdae {

namespace detail {
class CrossingTable;
}  // namespace detail

/// Why the event iteration was entered.
/// kStep: asked by the model after a completed integrator step (SimulationModel::completed_step).
enum class EventKind { kInitial, kTime, kState, kTerminal, kStep };

namespace detail {
struct EventRequests;
class SensitivityModel;
}  // namespace detail

/// What the model sees and may change in SimulationModel::on_event.
class EventContext {
 public:
  EventContext(double t, EventKind kind, int pass, std::span<double> x,
               std::span<const double> der_x, const detail::CrossingTable& crossings,
               std::span<const bool> time_events_fired, detail::EventRequests& requests);

  [[nodiscard]] double t() const { return t_; }
  [[nodiscard]] EventKind kind() const { return kind_; }
  [[nodiscard]] bool is_initial() const { return kind_ == EventKind::kInitial; }
  /// 1 for the first pass of the event iteration at this instant.
  [[nodiscard]] int pass() const { return pass_; }

  /// Current state; writing to it is an explicit re-initialization (x^- of the jump solve).
  [[nodiscard]] double x(Var v) const {
    return x_[detail::checked("variable", v.index, x_.size())];
  }
  void set(Var v, double value) { x_[detail::checked("variable", v.index, x_.size())] = value; }
  [[nodiscard]] double der(Var v) const {
    return der_x_[detail::checked("variable", v.index, der_x_.size())];
  }

  /// Current Boolean of a crossing (as its helper last returned it).
  [[nodiscard]] bool is_true(Crossing c) const;
  /// The crossing's Boolean went false -> true in this pass.
  [[nodiscard]] bool rose(Crossing c) const;
  /// The crossing's Boolean went true -> false in this pass.
  [[nodiscard]] bool fell(Crossing c) const;
  /// The time event fired at this instant (first pass only).
  [[nodiscard]] bool fired(TimeEvent e) const {
    return time_events_fired_[detail::checked("time event", e.index, time_events_fired_.size())];
  }

  /// The same event seen through other unknowns, for a model that wraps another (the index
  /// reduction hands its original model the original's x and der_x): crossings, time events
  /// and requests are shared with this context; writes go to the given x. The wrapped model's
  /// rows and variables are not the simulator's, so set_row_kind is refused there (ModelError):
  /// it switches its equations inside its residuals and calls rows_changed(). Its impulse()
  /// calls are collected in `impulses` (its own variables) for the wrapping model, which
  /// integrates the impact over its own equations (impulses_integrated); without that list
  /// impulse() is refused there too.
  [[nodiscard]] EventContext with_state(std::span<double> x, std::span<const double> der_x,
                                        std::vector<Var>* impulses = nullptr) const;

  /// Switches an equation between f_d and f_c from the next evaluation on.
  void set_row_kind(Eq e, RowKind kind);
  /// Says that rows now hold other derivatives than before although their kinds stayed: the
  /// simulator finds anew which unknowns are algebraic, makes the state consistent with the
  /// new rows and restarts IDA.
  void rows_changed();
  /// Says that the rows now state the same solution in other equations: every unknown goes
  /// on smoothly through the event, and the state before it satisfies the new rows (the
  /// index reduction's new choice of states, which moves der() from one unknown to another).
  /// When the event changes nothing else (no value, row kind or impulse), the simulator
  /// makes no jump solve for it and lets IDA go on at its order with its history, finding
  /// anew only which unknowns are algebraic; otherwise it counts as rows_changed().
  void reformulated();
  /// Says that the handler replaced structure().sparsity: the same unknowns and rows, other
  /// entries (the index reduction's state rows der(s) = next, which touch other unknowns when
  /// the choice of states changes). The simulator takes the new pattern after this handler:
  /// this pass's jump solve and IDA's sparse Jacobian (KLU and its coloured differences) use
  /// it, and the new pattern restarts nothing: IDA keeps its history unless the rest of the
  /// event restarts it. It implies nothing else: whether the rows changed is said by
  /// reformulated() or rows_changed(), independently. A dense run only checks the pattern.
  /// ModelError naming the model when an entry lies outside the residual, or when a model
  /// that declared no pattern declares one now, or one that declared a pattern declares none.
  void sparsity_changed();
  /// previous[j] for a new unknown j that carries no value over (unknowns_changed).
  static constexpr std::size_t kNewUnknown = static_cast<std::size_t>(-1);
  /// Says that structure() now declares other unknowns and rows (a mode with another number
  /// of unknowns: two bodies that stick together, a string that goes slack). previous[j] is
  /// the index before this call of the unknown whose value new unknown j carries on, or
  /// kNewUnknown for one that starts at its declared start value (VariableInfo::start and
  /// der_start); carried_unknowns() pairs them by name. After this pass's handler the
  /// simulator takes the new unknowns and their row kinds, makes the state consistent with
  /// the new rows and starts IDA afresh; the handler itself still sees the unknowns of before.
  /// Crossings and time events stay those of the run's start, and so do the result's columns:
  /// an unknown that is gone is NaN in later rows, a new one whose name had no column is not
  /// recorded. Refused in a wrapped model (with_state). The simulator throws ModelError when
  /// the new structure is invalid, declares other crossings or time events, or previous has
  /// not one entry per new unknown or names an index beyond the unknowns of before.
  void unknowns_changed(std::vector<std::size_t> previous);
  /// Schedules (or moves) time event e to time t_s (> current time, or == for "now").
  void schedule(TimeEvent e, double t_s);
  void cancel(TimeEvent e);
  /// Ends the run after this event with status "stopped by model".
  void terminate(std::string reason);
  /// Asks for one more pass of the event iteration even if no crossing flipped.
  void request_iteration();
  /// Declares an impact source for this pass's jump (ITI paper section 3): the algebraic
  /// unknown v (a contact force, say) may carry a Dirac impulse. The jump solve then
  /// integrates over the impulse every equation v enters, finds the unknowns the impulse
  /// reaches through constraint rows (their integrals become unknowns too) and lets the
  /// states jump as the integrated equations of motion say: momentum balances hold without
  /// the model writing integral states. The event log records each impulse's integral. The
  /// impact law itself is the model's (e.g. a constraint row on the post-impact velocities in
  /// this pass). Implies another pass, in which the model leaves its impact mode; the
  /// derivatives are made consistent there. ModelError when v is not algebraic in this mode.
  void impulse(Var v);
  /// The integral of one Dirac impulse a model integrated itself (impulses_integrated).
  struct IntegratedImpulse {
    Var variable;
    double integral = 0.0;
  };
  /// For a model that integrates an impact over its own equations (the index reduction, whose
  /// differentiated equations hold the impulses of constraint forces the simulator's rows do
  /// not show): x^+ after the impulses has been written with set(), and `impulses` are their
  /// integrals, which the event log records. The simulator makes no jump solve in this pass
  /// and asks for another, in which the model leaves its impact mode and the state and its
  /// derivatives are made consistent with the mode after the impact. ModelError when impulse()
  /// was called in the same pass (one impact, one integration).
  void impulses_integrated(const std::vector<IntegratedImpulse>& impulses);

 private:
  /// A sensitivity run calls the model's handler at points near the event's with requests of
  /// its own, and maps them onto the sensitivity rows (sensitivity/sensitivity_model.hpp).
  friend class detail::SensitivityModel;

  double t_;
  EventKind kind_;
  int pass_;
  std::span<double> x_;
  std::span<const double> der_x_;
  const detail::CrossingTable& crossings_;
  std::span<const bool> time_events_fired_;
  detail::EventRequests& requests_;
  bool wrapped_ = false;  ///< made by with_state: rows and variables are not the simulator's
  std::vector<Var>* wrapped_impulses_ = nullptr;  ///< with_state's list for impulse()
};

/// For EventContext::unknowns_changed: per unknown of `after`, the index of the unknown of
/// `before` with the same name, or EventContext::kNewUnknown.
[[nodiscard]] std::vector<std::size_t> carried_unknowns(const VariableTable& before,
                                                        const VariableTable& after);

}  // namespace hdae
