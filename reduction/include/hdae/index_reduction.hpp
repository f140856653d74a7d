// Index reduction by dummy derivatives with dynamic state selection (docs/design.md, "Index
// reduction").
//
// A PhysicsModel F(t, x, der_x) = 0 of higher index becomes an index-1 SimulationModel that
// IDA integrates and whose solution satisfies the original equations and all their hidden
// derivatives to the Newton tolerance:
//
// 1. Structure and index (hdae/structure.hpp): Pryce's offsets c_i (row i is differentiated
//    c_i times) and d_j (x_j appears up to its d_j-th derivative).
// 2. The reduced system's unknowns are the derivatives x_j^(k), k = 0..d_j, each an unknown of
//    its own ("slots", named x, x', x'', ...); its equations are every F_i^(q), q = 0..c_i,
//    evaluated exactly with Taylor jets (hdae/jet.hpp). There are sum c_i more equations than
//    the index-1 system may have unknowns without derivative relations: exactly that many
//    slots become algebraic ("dummy derivatives", Mattsson and Soederlind), the others are
//    states, each with one row der(x_j^(k)) = x_j^(k+1).
// 3. State selection: stage kappa (1 <= kappa <= max c) has the rows with c_i >= kappa and
//    picks, among the unknowns with d_j >= kappa that stage kappa - 1 picked, as many as it has
//    rows, so that the block of Pryce's system Jacobian they form is well conditioned; those
//    x_j^(d_j - kappa) are algebraic. The pick goes from the deepest stage up, each stage
//    keeping the unknowns of the one below (nested sets), by column-pivoted orthogonalisation
//    of the nominal-scaled block, then by single exchanges while one grows |det| of the block.
// 4. Dynamic selection: when a stage has a choice, a crossing watches by how much exchanging
//    one dummy derivative for another candidate would grow |det| of the block; when some
//    exchange would grow it by more than 1/switch_ratio, an event re-selects the states (the
//    pendulum passing 45 degrees or so: x stops being a good coordinate near the bottom). All
//    slots keep their values; only which of them are states changes, and IDA goes on with its
//    history (EventContext::reformulated). The crossing is judged where crossing values are
//    used (IDA's root functions, event passes), not in every residual.
// 5. Consistent start: the slots nearest to the start values, firmest values first (fixed
//    start values move only as far as the others cannot make the equations hold, given values
//    likewise before guesses: algebraic unknowns' start values and derivative slots without
//    der_start), each slot judged at its own size, that satisfies every F_i^(q) to its
//    round-off, by Gauss-Newton steps kept within the variables' bounds (VariableInfo
//    min/max, which the reduced model's slots of the unknowns themselves keep as well). A start
//    that is consistent is kept as given. Start values that had to move are named in
//    describe().
//
// 6. Events: the original's crossings and time events are the reduced model's first ones, at
//    the same indices. Its template's crossing helpers reach the simulation's, and its
//    on_event sees its own variables (EventContext::with_state). An impact source it marks
//    (EventContext::impulse, the contact force) is integrated over by the reduced model itself:
//    ITI's impulse orders on Pryce's structure say which slots jump and which carry a Dirac
//    impulse (the rod force's, found from the rod's second derivative), and the equations of
//    order 0 are integrated by the midpoint rule of ITI eq. (8), the constraints of order -1
//    held at the right limits (EventContext::impulses_integrated). After each event the
//    structure is analysed again at the event's point: when the offsets are unchanged, the
//    states are selected anew and integration goes on. A mode that changes them (a row that
//    gains or loses a derivative, a constraint that comes or goes) gets a layout of its own,
//    its unknowns numbered as the run's, and the simulator makes the state consistent with
//    its rows. A mode whose layout needs other unknowns declares them
//    (EventContext::unknowns_changed): slots both layouts have keep their values, new ones
//    start from the original's point and the jump solve, and the simulator builds IDA anew.
//
// IDA's Newton matrix is exact: the equations' jets are differentiated in the slots by jets one
// level deeper (reduced_jacobian.hpp), columns that share no equation in one evaluation.
//
// Size: the reduced model declares its sparsity pattern (the equations' rows from Pryce's
// signature, the state rows from the selection, anew at every change of states:
// EventContext::sparsity_changed), so a large one runs with KLU
// (SimulationOptions::sparse_min_unknowns). A stage of the state selection with more than 40
// rows is picked and judged within the diagonal blocks of the block triangular form of its
// picks, so that a step end and a fresh selection cost in proportion to the size where the
// blocks stay small (a mechanism's closed loops), and a re-selection starts from the states it
// replaces; a model with more than 400 slots finds its consistent start with sparse
// minimum-norm steps (SuiteSparseQR). A model without exact Jacobians (evaluated with doubles
// only, or differentiated three times) forms its matrices by difference quotients, columns that
// share no row moved together, and its large stages are judged by blocks too, an entry counting
// as non-zero only well above the quotients' noise.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "hdae/physics_model.hpp"
#include "hdae/structure.hpp"

namespace hdae {

struct ReductionOptions {
  /// A selection is replaced when exchanging one of its dummy derivatives for another candidate
  /// would grow the determinant of its block by more than 1 / switch_ratio (in (0, 1); smaller
  /// switches later).
  double switch_ratio = 0.5;
  /// The structure detection's threshold (SignatureDetection::threshold): an equation depends
  /// on a variable or derivative when its change for a nominal-sized step exceeds this fraction
  /// of the geometric mean of the largest change of the equation and the largest change that
  /// variable or derivative causes; in (0, 1). Changes that are rounding are told apart by how
  /// they follow the step, not by this threshold.
  double structure_threshold = SignatureDetection{}.threshold;
};

class IndexReducedModel final : public SimulationModel {
 public:
  /// Analyses the model at its start values, builds the reduced system, selects the states
  /// and finds consistent start values. ModelError naming equations and variables when the
  /// system is structurally or numerically singular, when its index exceeds 3 (one row
  /// differentiated more than three times), or when no consistent start is found.
  explicit IndexReducedModel(std::unique_ptr<PhysicsModel> original, ReductionOptions options = {});
  ~IndexReducedModel() override;

  [[nodiscard]] const ModelStructure& structure() const override;
  void evaluate(Evaluation& e) override;
  /// The exact Newton matrix: the derivatives of the equations' jets with respect to the
  /// slots, from jets over directional derivatives (difference quotients when an equation is
  /// differentiated three times). The state selection is judged here too.
  [[nodiscard]] bool provides_jacobian() const override { return true; }
  void jacobian(double t, double cj, std::span<const double> x, std::span<const double> der_x,
                JacobianEntries& entries) override;
  /// True once Pryce's system Jacobian, judged at the step ends with the selection, has moved
  /// by more than 2 % of its largest entry since IDA's Newton matrix was formed.
  bool newton_matrix_aged() override;
  void on_event(EventContext& event) override;
  void reset() override;
  /// After a failed integration: the equations whose structure at the failure differs from
  /// the one the reduction is laid out for (a row that gained a derivative or an unknown
  /// without an event, where nothing analysed it afresh), or empty.
  [[nodiscard]] std::string failure_note(double t, std::span<const double> x,
                                         std::span<const double> der_x) override;
  /// Sets the parameter on the original model and reduces it anew. When the new value cannot
  /// be reduced (ModelError), the previous value is restored and the error passes on.
  void set_parameter(std::string_view name, double value) override;
  /// Varies the original's parameter for a sensitivity run's difference quotients, without
  /// reducing anew: the layout and the states stay those of the run.
  void vary_parameter(std::string_view name, double value) override;
  /// Moves the slot j's start value and makes the start consistent again from there, as the
  /// reduced model's start does (hdae::SimulationModel::vary_start); false once a run has
  /// evaluated the model.
  bool vary_start(std::size_t j, double value) override;

  [[nodiscard]] const PhysicsModel& original() const;
  /// The structure analysis at the start values.
  [[nodiscard]] const IndexAnalysis& analysis() const;
  /// The reduced model's variable holding the k-th derivative of the original variable v
  /// (k <= d_j) in the active layout; ModelError when the reduced system has no such slot.
  [[nodiscard]] Var slot(Var original_variable, int k) const;
  /// Names of the current states, e.g. {"y", "y'"}.
  [[nodiscard]] std::vector<std::string> states() const;
  /// How often the states were re-selected (or laid out afresh for a new mode) since reset().
  [[nodiscard]] std::size_t selection_changes() const;
  /// Index, differentiated equations, selected states and moved start values of the active
  /// layout, in words; after a change of structure, also the event that brought the layout.
  [[nodiscard]] std::string describe() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hdae
