// The state of an index-reduced model (hdae/index_reduction.hpp), shared by the files that
// implement it: index_reduced_model.cpp (building, residuals, Newton matrices, the public
// interface), reduced_model_start.cpp (the consistent start) and reduced_model_events.cpp
// (events: modes, impacts, changes of structure).
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "consistent_start.hpp"
#include "hdae/index_reduction.hpp"
#include "reduced_jacobian.hpp"
#include "selection_judge.hpp"
#include "slot_layout.hpp"
#include "state_selection.hpp"
#include "step_end_watch.hpp"

namespace hdae {

/// The analysis is made at the start values and this time (the model's t0 is not known
/// before a run; models of this kind are analysed at their start point).
inline constexpr double kReductionAnalysisTime = 0.0;

struct IndexReducedModel::Impl {
  std::unique_ptr<PhysicsModel> original;
  ReductionOptions options;
  IndexAnalysis analysis;
  /// The analysis of the mode in force (analysis until an event changes the mode): the
  /// structure an impact's impulses spread through.
  IndexAnalysis mode;
  reduction::SlotLayout layout;
  ModelStructure structure;
  reduction::StateSelection selection;
  std::vector<double> scale;                ///< nominal value per original unknown
  std::vector<std::string> equation_names;  ///< the original's, for the selection's messages
  /// The selection crossing is declared: the layout has a choice of states, or the model has
  /// events, whose modes may bring one (relayout).
  bool watch_selection = false;
  /// The current layout leaves a choice of states (reduction::has_choice).
  bool choice = false;
  /// The model was evaluated since its construction or reset(): a run has begun.
  bool evaluated = false;
  /// When the active layout is not the start's: the time of the event that brought it.
  std::optional<double> layout_since;
  /// The layout, structure and states at the start, restored by reset() after a run changed
  /// modes.
  struct Start {
    reduction::SlotLayout layout;
    ModelStructure structure;
    reduction::StateSelection selection;
    /// The original's start values of its unknowns and of der() where given, when the
    /// reduction found the consistent start from them (follow_original_starts).
    std::vector<double> original_x;
    std::vector<std::optional<double>> original_der;
  } start;
  Crossing selection_crossing;
  /// The selection's quality (reduction::SelectionJudge) where the crossings were last
  /// wanted: IDA's Newton iterations do not use crossing values, so only the evaluations at
  /// the ends of its steps and in its root finding judge the selection.
  double quality = 1.0;
  /// Pryce's system Jacobian where IDA's Newton matrix was last formed, and whether it has
  /// moved since by more than kAgedChange (IndexReducedModel::newton_matrix_aged).
  reduction::SystemJacobian at_setup;
  /// The same at the last step end, kept so that judging it allocates nothing.
  reduction::SystemJacobian at_step_end;
  /// The current selection's judge, laid out anew when the selection or the layout changed.
  reduction::SelectionJudge judge;
  /// Which step ends judge the selection afresh.
  reduction::StepEndWatch watch;
  bool aged = false;
  /// Exact Newton matrices from jets (reduced_jacobian.hpp) when the depth allows and the
  /// model propagates jets; difference quotients otherwise.
  bool exact = false;
  reduction::ReducedJacobian exact_jacobian;
  std::size_t changes = 0;
  std::vector<std::string> start_notes;
  /// Between an impact's pass and the next: the original is in its impact mode, whose rows
  /// hold only for the jump, so the selection is not judged there.
  bool in_impact = false;

  void build();
  /// Moves the slots of the original's start values (x_j, and der(x_j) where given) from the
  /// consistent start by as much as those values moved since, then makes the start consistent
  /// again for the equations as the parameter now makes them: a parameter varied for a
  /// sensitivity at t0 (SimulationModel::vary_parameter).
  void follow_original_starts();
  /// ModelError unless the analysis is one the reduction handles (regular, without row
  /// combinations, no row differentiated more than three times); t: where it was made.
  void check_analysis(const IndexAnalysis& a, double t) const;
  /// The current unknown for each unknown of a new mode's layout (by the slot each is named
  /// after); empty when the new layout has other unknowns.
  [[nodiscard]] std::vector<std::size_t> run_numbering(const reduction::SlotLayout& fresh) const;
  /// The layout of the mode `now` in force after an event: rows, their kinds, the exact Newton
  /// matrix and the state selection follow it, and the simulator makes the state consistent
  /// with the new rows. With the same unknowns they keep the run's numbering; otherwise the
  /// reduced model declares the new layout's unknowns (new_unknowns).
  void relayout(EventContext& event, const IndexAnalysis& now,
                std::vector<reduction::Alias> aliases);
  /// The unknowns of a new layout that has other slots than the current one: the slots both
  /// have carry their values (EventContext::unknowns_changed pairs them by name), a new slot
  /// of an unknown itself or of its first derivative starts at the original's value before the
  /// event, a deeper one at 0, for the jump solve to find.
  void new_unknowns(EventContext& event, reduction::SlotLayout fresh);
  /// The layout's pieces that follow it: exact Newton matrix, choice, the state selection at
  /// the slots y; the mode is `now` from t on.
  void follow_layout(const IndexAnalysis& now, double t, std::span<const double> y);
  /// The consistent start's problem at the structure's present start values (the guesses),
  /// each slot as firm as the original's declarations make it.
  [[nodiscard]] reduction::StartProblem start_problem() const;
  void find_consistent_start();
  /// The Jacobian of the equation rows F_i^(q) at the slots and the analysis time (the
  /// consistent start's, consistent_start.hpp): exact where the model has exact Jacobians, else
  /// by grouped difference quotients.
  void equations_jacobian(std::span<const double> slots, Eigen::SparseMatrix<double>& a) const;
  [[noreturn]] void throw_no_consistent_start(const reduction::StartResult& r) const;
  /// Names the state rows after the selection and declares the pattern they and the mode's
  /// equations make (reduced_pattern.hpp); true when that pattern changed.
  bool name_state_rows();
  /// The selection at the slots; from `previous` by exchanges where its stages allow
  /// (reduction::select_states).
  [[nodiscard]] reduction::StateSelection fresh_selection(
      double t, std::span<const double> slots,
      const reduction::StateSelection* previous = nullptr) const;
  /// Pryce's system Jacobian at the slots: from jets when exact, else by differences.
  [[nodiscard]] reduction::SystemJacobian system_at(double t, std::span<const double> slots) const;
  void system_at(double t, std::span<const double> slots, reduction::SystemJacobian& j) const;
  /// The quality of the current selection at the slots: judged afresh when `fresh` or when
  /// the watch says so, else the last judged.
  [[nodiscard]] double quality_now(double t, std::span<const double> slots, bool fresh);
  /// IDA's Newton matrix dF/dx + cj dF/d(der_x) of the reduced system into entries.
  void jacobian(double t, double cj, std::span<const double> x, JacobianEntries& entries);
  void forward_outputs(Evaluation& e) const;
  /// The original's event handler on its own variables; then, when its mode changed, the
  /// structure checked against the layout and the states selected anew. False when the pass
  /// was an impact, whose jump this model integrated (integrate_impact).
  bool forward_event(EventContext& event);
  /// The jump over the impulses of the sources the original marked in this pass, at the
  /// original's point (x, der_x) in its impact mode.
  void integrate_impact(EventContext& event, std::span<const Var> sources,
                        std::span<const double> x, std::span<const double> der_x);
  /// The slots that are other unknowns, in words ("" without aliases).
  [[nodiscard]] std::string alias_words() const;
  [[nodiscard]] SignatureDetection detection() const {
    SignatureDetection d;
    d.threshold = options.structure_threshold;
    return d;
  }
  [[nodiscard]] bool has_events() const {
    return !original->structure().crossings.empty() || !original->structure().time_events.empty();
  }
};

}  // namespace hdae
