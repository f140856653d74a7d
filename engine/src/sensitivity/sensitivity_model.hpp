// Forward sensitivities by an augmented system (docs/design.md, "Sensitivities").
//
// For F(t, x, x', p) = 0 the sensitivities s_k = dx/dp_k satisfy the linear DAE
//   F_x s_k + F_x' s_k' + F_p_k = 0,
// the derivative of F along the path eps -> (x + eps s_k, x' + eps s_k', p_k + eps). The
// sensitivity model is the model with those rows appended: its unknowns are x and every s_k,
// its rows F and, for each source k, the path derivative of F taken by a difference quotient
// of fourth order (central; one-sided where a parameter's range ends within two steps). IDA
// integrates it as any model: its Newton iteration, error test (on s_k too, unless switched off),
// consistent start (which makes the algebraic part of s_k and every s_k' consistent with x's) and
// output rows. A start value as the source has s_k(t0) = e_j and no F_p term; a parameter has
// s_k(t0) = d(start values)/dp_k, by the same quotient on the model's start values.
// A model whose Jacobian is exact (SimulationModel::has_exact_jacobian) gives the rows as
// F_x s_k + F_x' s_k' from it instead (model_linearisation.hpp), a parameter's own F_p_k still
// by the quotient, at the point: the quotient along the path carries the rounding of
// x + eps s_k times F_x over its step, which where s_k is small against x the Newton
// iterations of a stiff model at tight tolerances cannot get below.
// Its Newton matrix is the difference quotient IDA (or the coloured one with KLU) takes of the
// whole augmented system, or where the model supplies its Jacobian, that Jacobian on each
// diagonal block and its quotient along each source below them (sensitivity_jacobian.cpp);
// the blocks below the diagonal (F's second derivatives times s_k) are included either way:
// leaving them out, as IDAS's simultaneous corrector does, costs the pendulum more Newton
// failures and Jacobians than the saved residuals are worth.
//
// The model runs in the sensitivity run only through this wrapper, which claims it (no other
// run may use it meanwhile) and varies its parameters for the quotients
// (SimulationModel::vary_parameter), setting them back after each.
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "events/event_requests.hpp"
#include "hdae/model.hpp"
#include "hdae/options.hpp"
#include "model/model_in_use.hpp"
#include "model/row_sizes.hpp"
#include "sensitivity/model_linearisation.hpp"
#include "sensitivity/sensitivity_sources.hpp"

namespace hdae::detail {

/// The points of one difference quotient along the path and their weights: the derivative
/// is sum_m weight[m] f(offset[m] h) / h. Offsets are in units of the step h.
struct Stencil {
  std::array<int, 5> offset{};
  std::array<double, 5> weight{};
  std::size_t points = 0;
};

class SensitivityModel final : public SimulationModel, public RowSizes {
 public:
  /// Claims the model (ModelError when it is in another run), resets it and resolves the
  /// options' sensitivities (OptionError naming an unknown one, ModelError for a model with
  /// events).
  SensitivityModel(SimulationModel& model, const SimulationOptions& options);

  [[nodiscard]] const ModelStructure& structure() const override { return structure_; }
  void evaluate(Evaluation& e) override;
  /// The model's handler, its requests mapped onto the sensitivity rows, and the jump of the
  /// sensitivities (sensitivity_events.cpp).
  void on_event(EventContext& event) override;
  /// The model's: the sensitivity rows are linearisations of its rows.
  [[nodiscard]] bool newton_matrix_aged() override { return model_.newton_matrix_aged(); }
  /// Where the model supplies its Jacobian, so does the sensitivity model: the model's on x
  /// and on each s_k, and its derivative along each source below them
  /// (sensitivity_jacobian.cpp).
  [[nodiscard]] bool provides_jacobian() const override { return model_.provides_jacobian(); }
  void jacobian(double t, double cj, std::span<const double> x, std::span<const double> der_x,
                JacobianEntries& entries) override;
  void reset() override {
    model_.reset();
    carried_ = {};
  }
  [[nodiscard]] std::string failure_note(double t, std::span<const double> x,
                                         std::span<const double> der_x) override;
  [[nodiscard]] SimulationModel& model() { return model_; }
  /// Row i of source k is a quotient of row i's terms along the source: it carries their
  /// rounding over the source's step, however far its own terms cancel, so its size is at
  /// least row i's over the source's magnitude (the size of the terms' derivatives).
  void widen_row_sizes(std::span<double> sizes) const override;

 private:
  /// The structure: the model's, then per source its unknowns, rows and outputs.
  void build_structure(bool error_control);
  /// The augmented pattern from the model's current one (anew when an event changed it).
  void augment_pattern();
  /// The derivative of the model's start values along source k.
  [[nodiscard]] std::vector<double> start_derivative(std::size_t k);
  /// What a quotient moves: the whole path of source k, or its parameter alone at the point.
  enum class Path { kFull, kParameterOnly };
  /// Evaluates the model at x + eps s_k, x' + eps s_k', p_k + eps (kParameterOnly: at x, x',
  /// p_k + eps) into r and w.
  void evaluate_at(const Evaluation& e, std::size_t k, double eps, Path path, std::span<double> r,
                   std::span<double> w);
  /// The derivative along source k's path (or its parameter) by its stencil into sums_.r, and
  /// into sums_.w for the outputs where w is not empty; e holds the rows at the point itself.
  void quotient(Evaluation& e, std::size_t k, Path path, std::span<double> w);
  /// Sets parameter source k to its value plus eps (0: back to its value).
  void vary(std::size_t k, double eps);
  /// The quotient for source k: central, or one-sided where its parameter's range ends
  /// within two steps (OptionError when both sides do).
  [[nodiscard]] Stencil make_stencil(std::size_t k) const;

  /// What one call of the model's handler did, at a point of its own with requests of its own.
  struct HandlerCall {
    std::vector<double> x;
    std::vector<RowKind> row_kinds;
    std::vector<double> time_event_times;
    EventRequests requests;
  };
  /// The model's handler at x (the model's unknowns) with source k moved by eps.
  [[nodiscard]] HandlerCall call_handler(const EventContext& event, std::span<const double> x,
                                         std::span<const double> der_x, std::size_t k, double eps);
  /// The model's handler at the sensitivity run's point x (all unknowns): its requests made
  /// in the run's context, the state it writes and the sensitivities' share of it, with
  /// s- + x'- dt*/dp where the event time moves (tau) and the handler does more than
  /// reformulate its rows.
  void handle(EventContext& event, std::vector<double> x, std::span<const double> der_x,
              const std::vector<double>& tau);
  /// s- + x'- dt*/dp into x and the correction's second half for a later pass (pending_).
  void begin_event_time_correction(EventContext& event, const HandlerCall& first,
                                   std::vector<double>& x, std::span<const double> der_x,
                                   const std::vector<double>& tau);
  /// The handler's call only states the same solution in other rows (EventContext::
  /// reformulated, nothing written, scheduled or switched): x and x' go on continuously, and
  /// so do the sensitivities, whatever the event time's derivative.
  [[nodiscard]] bool only_reformulates(const EventContext& event, const HandlerCall& call,
                                       std::span<const double> x) const;
  /// The handler's first call at an event: refuse_unsupported, and where it switches rows or
  /// marks impulses, refuse_kept_state.
  void check_first_call(const EventContext& event, const HandlerCall& first,
                        std::span<const double> x, std::span<const double> der_x);
  /// ModelError for a call that changes the unknowns or integrates its own impacts.
  void refuse_unsupported(const HandlerCall& call) const;
  /// ModelError when the model's rows after a jump handler use values the handler kept from
  /// the state (velocities before an impact in members): the rows' sensitivities would lose
  /// their dependence on s-. Seen as rows that differ at the same point after the handler was
  /// called at a point moved along a source; the last call leaves the handler's own state.
  void refuse_kept_state(const EventContext& event, std::span<const double> x,
                         std::span<const double> der_x);
  /// The model's rows at its own unknowns x, der_x at time t, with the crossings' Booleans of
  /// the event.
  std::vector<double> rows_at(const EventContext& event, std::span<const double> x,
                              std::span<const double> der_x);
  /// The real call's requests, made in the sensitivity run's own context.
  void apply_requests(EventContext& event, const HandlerCall& call);
  /// dt_event/dp_k of this event: from the crossing that flipped, or from the time event's
  /// schedule; zero at t0.
  [[nodiscard]] std::vector<double> event_time_derivatives(const EventContext& event,
                                                           std::span<const double> x,
                                                           std::span<const double> der_x);
  /// The value of crossing c at (t, x + eps s_k, der_x + eps s_k') with source k moved by eps.
  [[nodiscard]] double crossing_value(double t, std::span<const double> x,
                                      std::span<const double> der_x, std::size_t c, std::size_t k,
                                      double eps);
  /// The derivative along source k of a quantity f(eps), by the source's stencil (f(0) given).
  template <class F>
  [[nodiscard]] double along(std::size_t k, double at_zero, F&& f) const;

  SimulationModel& model_;
  ModelInUse in_use_;
  std::vector<SensitivitySource> sources_;
  std::vector<double> values_;  ///< each parameter source's value in the run
  std::vector<double> steps_;   ///< each source's difference step h
  std::vector<Stencil> stencils_;
  ModelStructure structure_;
  std::size_t n_ = 0;        ///< unknowns (and rows) of the model
  std::size_t outputs_ = 0;  ///< outputs of the model
  /// Scratch: a point on the path, its left limits in a jump solve, the residual and outputs
  /// there.
  std::vector<double> x_, der_x_, left_, r_, w_;
  /// The stencil's weighted sums of the residuals and the outputs (quotient()).
  struct Sums {
    std::vector<double> r, w;
  };
  Sums sums_;
  std::vector<double> w0_;  ///< the model's outputs at the point itself
  /// The model's rows linearised at the point, where its Jacobian is exact.
  ModelLinearisation linearisation_;
  /// What the calls of the model's handler in one pass have asked for so far. A handler called
  /// again at the same point finds the model as its earlier call left it (a reduced model laid
  /// out afresh for a new mode, or re-selecting its states) and does not ask again: the row
  /// kinds one call set are where the next call starts, and a replaced pattern or changed rows
  /// count when any call said so.
  struct CarriedRequests {
    std::vector<RowKind> row_kinds;  ///< the model's rows only
    bool pattern_changed = false;
    bool rows_changed = false;
  };
  CarriedRequests carried_;
  /// Set in the pass of an event whose time depends on the sources: dt_event/dp_k, applied
  /// as -der_x(t+) dt_event/dp_k in the next pass, after the jump solve found der_x(t+). A
  /// jump over impulses leaves der_x at x'- until the next pass has made it consistent, and
  /// the correction then waits one pass more.
  struct PendingEventTime {
    std::vector<double> tau;
    bool after_impulses = false;
  };
  PendingEventTime pending_;
  /// Per time event and source: d(scheduled time)/dp_k, from the schedule's last change.
  std::vector<std::vector<double>> schedule_derivatives_;
};

}  // namespace hdae::detail
