// The model contract of hdae.
//
// A hybrid DAE model is one residual vector r = F(t, x, der_x) over the unknowns x, split
// row by row into f_d rows (holding der_x, mostly linearly) and f_c rows (no der_x), plus crossing
// functions that end continuous integration and an event handler that may switch modes
// (docs/design.md, "The problem class" and "The event loop"). The simulator (simulator.hpp) owns
// the continuous state and calls the model through two entry points:
//
//   evaluate(Evaluation&)   residuals, crossing conditions and outputs, from one place
//   on_event(EventContext&) discrete changes at an event instant (modes, row kinds,
//                           explicit re-initialization, time events, termination)
//
// Models are usually written against the modelling layer in model_builder.hpp, which declares
// named variables, equations, outputs, crossings and time events; this header holds the
// description (ModelStructure, whose tables of unknowns, rows and pattern entries are in
// declarations.hpp) and the two context classes.
#pragma once

#include <atomic>
#include <cstddef>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "hdae/declarations.hpp"
#include "hdae/event_context.hpp"

namespace hdae {

/// Which changes of a crossing's Boolean end continuous integration: kRising only
/// false -> true (for positive(c): c rising through 0; for negative(c): c falling through 0),
/// kFalling only true -> false, kBoth either.
enum class CrossingDirection { kBoth, kRising, kFalling };

/// Description of one auxiliary output w[k] (computed in evaluate, stored in results).
struct OutputInfo {
  std::string name;
  std::string unit;
};

/// Description of one crossing function z[k].
struct CrossingInfo {
  std::string name;
  CrossingDirection direction = CrossingDirection::kBoth;
  double nominal = 1.0;  ///< typical magnitude of the crossing value (> 0): scales its guard
};

/// Description of one time event the model may schedule.
struct TimeEventInfo {
  std::string name;
};

/// Description of one run-time parameter: a named number the model reads in evaluate() and
/// on_event() and that a user may change between runs (SimulationModel::set_parameter).
/// validate() requires a unique non-empty name, a finite value, bounds that are not NaN with
/// min <= max, and min <= value <= max.
struct ParameterInfo {
  std::string name;    ///< unique among parameters, non-empty, e.g. "J2"
  std::string unit;    ///< free text, may be empty
  double value = 0.0;  ///< current value (the default until set_parameter); finite
  double min = -std::numeric_limits<double>::infinity();  ///< inclusive lower bound
  double max = std::numeric_limits<double>::infinity();   ///< inclusive upper bound
  std::string description;                                ///< one line, for listings and help texts
  /// Takes whole numbers only (a count): validate() requires an integral value, and
  /// sensitivities (SimulationOptions::sensitivities) refuse it.
  bool integer = false;
};

/// Everything about a model that is not a function evaluation.
struct ModelStructure {
  std::string name;
  VariableTable variables;
  EquationTable equations;
  std::vector<OutputInfo> outputs;
  std::vector<CrossingInfo> crossings;
  std::vector<TimeEventInfo> time_events;
  /// Run-time parameters with their current values (SimulationModel::parameter reads here).
  std::vector<ParameterInfo> parameters;
  /// Union of the patterns of dF/dx and dF/d(der_x); empty means "dense / unknown".
  SparsityTable sparsity;

  [[nodiscard]] std::size_t num_unknowns() const { return variables.size(); }
  /// Throws ModelError naming the offending entry (sizes, names, values, sparsity).
  void validate() const;
};

namespace detail {
class CrossingTable;
class ModelInUse;
/// The index of the parameter called name in s.parameters; ModelError naming the model and
/// listing the known parameters when there is none.
[[nodiscard]] std::size_t find_parameter(const ModelStructure& s, std::string_view name);
}  // namespace detail

/// Why the model is being evaluated.
enum class EvaluationPhase {
  kContinuous,  ///< during integration: crossing Booleans frozen, crossing values recorded
  kEvent,       ///< at an event instant: crossing Booleans follow their current values
  kInitial,     ///< the event iteration at t0: like kEvent, and is_initial() is true
};

/// Whether the caller of an evaluation uses the crossing values (Evaluation::wants_crossings).
/// kFrozen: a probe near the point (Evaluation::at) whose crossing helpers return the Booleans
/// as they stand and record nothing, so that the probe takes the branches the point takes.
enum class CrossingValues { kUsed, kUnused, kFrozen };

/// Whether the caller of an evaluation uses the residuals (Evaluation::wants_residuals).
/// kUnused: the evaluations of the root functions, which read only the crossing values, and
/// those of output rows, which read only the outputs.
enum class ResidualValues { kUsed, kUnused };

/// Arguments and results of one call of SimulationModel::evaluate.
///
/// The residual vector must be written completely on every call that wants_residuals() (all
/// but those of the root functions and of output rows, which may skip their computation, as
/// calls that do not want outputs may skip those). Outputs are written only when
/// wants_outputs() is true.
class Evaluation {
 public:
  Evaluation(double t, std::span<const double> x, std::span<const double> der_x,
             std::span<double> r, std::span<double> w, detail::CrossingTable* crossings,
             EvaluationPhase phase, CrossingValues crossing_values = CrossingValues::kUsed,
             ResidualValues residual_values = ResidualValues::kUsed,
             std::span<const double> left_limits = {})
      : t_(t),
        x_(x),
        der_x_(der_x),
        r_(r),
        w_(w),
        left_(left_limits),
        crossings_(crossings),
        phase_(phase),
        crossing_values_(crossing_values),
        residual_values_(residual_values) {}

  [[nodiscard]] double t() const { return t_; }
  [[nodiscard]] double x(Var v) const { return x_[hot_index("variable", v.index, x_.size())]; }
  [[nodiscard]] double der(Var v) const {
    return der_x_[hot_index("variable", v.index, der_x_.size())];
  }
  [[nodiscard]] std::span<const double> x() const { return x_; }
  [[nodiscard]] std::span<const double> der_x() const { return der_x_; }
  /// The value of variable v just before the jump the engine is solving, x_v^- (the left
  /// limit at the event instant), for a law that relates the state after a jump to the state
  /// before it, as a restitution law v^+ = -e v^- does. Outside a jump solve, and in the
  /// evaluations of the event passes, the state is continuous and this is x(v). Written with
  /// left limits rather than values the event handler keeps, a law's dependence on x^- is seen
  /// by the engine: a run with sensitivities follows it through the jump.
  [[nodiscard]] double left_limit(Var v) const {
    return left_.empty() ? x(v) : left_[hot_index("variable", v.index, left_.size())];
  }
  /// The left limits of a jump solve, empty where they are x itself (left_limit).
  [[nodiscard]] std::span<const double> left_limits() const { return left_; }

  /// Sets residual row e (f_d or f_c, as declared for the current mode).
  void set(Eq e, double residual) { r_[hot_index("equation", e.index, r_.size())] = residual; }
  [[nodiscard]] std::span<double> residuals() { return r_; }

  [[nodiscard]] bool wants_outputs() const { return !w_.empty(); }
  /// False where only the crossing values or the outputs are used: IDA's root functions,
  /// evaluated at the end of each step and in its root finding, and output rows. The crossing
  /// helpers must be called as in any evaluation; the residuals may be left as they are.
  [[nodiscard]] bool wants_residuals() const { return residual_values_ == ResidualValues::kUsed; }
  /// False in the residual evaluations of IDA's Newton iteration, of the jump solve and of
  /// output rows, whose crossing values nobody uses: IDA evaluates the crossings on their own,
  /// at the end of each step and where it locates a root, and so does each pass of the event
  /// iteration. The helpers must still be called there, but a
  /// crossing value that is costly to compute may be the one the last evaluation that wanted
  /// crossings gave (the index reduction's state selection does so).
  [[nodiscard]] bool wants_crossings() const { return crossing_values_ == CrossingValues::kUsed; }
  /// The same instant, phase and crossings at another point, for a model that evaluates the
  /// model it wraps inside its own evaluation (a sensitivity run's difference quotients):
  /// with kFrozen the wrapped model's crossing helpers see the Booleans of this evaluation and
  /// record nothing; with kUsed or kUnused they act as in this evaluation.
  /// left_limits are those of the other point (empty: x there, as in continuous evaluations).
  [[nodiscard]] Evaluation at(std::span<const double> x, std::span<const double> der_x,
                              std::span<double> r, std::span<double> w,
                              CrossingValues crossing_values,
                              std::span<const double> left_limits = {}) const {
    // The wrapper reads what it asks for here, whatever its own caller uses.
    return {t_,         x, der_x, r, w, crossings_, phase_, crossing_values, ResidualValues::kUsed,
            left_limits};
  }
  void set(Out o, double value) {
    if (!w_.empty()) w_[index("output", o.index, w_.size())] = value;
  }

  /// True during the event iteration at t0 (before integration starts).
  [[nodiscard]] bool is_initial() const { return phase_ == EvaluationPhase::kInitial; }
  [[nodiscard]] bool is_event() const { return phase_ != EvaluationPhase::kContinuous; }

  // Crossing helpers: each crossing is used by exactly one helper call per evaluation. The
  // Boolean is frozen between events; IDA locates the zero of the value itself, and the
  // Boolean of a crossing IDA located flips at the event even when round-off leaves the value
  // a hair on the old side (docs/design.md, "The event loop").

  /// value > 0, frozen between events.
  bool positive(Crossing c, double value);
  /// value < 0, frozen between events.
  bool negative(Crossing c, double value);
  /// True at the event pass in which the sign of value changed (like Modelica's change()).
  bool change(Crossing c, double value);
  /// True at the event pass in which value became positive (rising edge); re-arms by itself.
  bool edge(Crossing c, double value);

 private:
  bool update(Crossing c, double value);
  /// The index of a variable or equation handle, the hot path of every residual evaluation.
  /// Builds without NDEBUG check every access against the declarations (like an assert);
  /// optimised builds leave it alone, and the simulator finds a residual row handle of another
  /// model in the evaluation at t0 instead (events/event_iteration.cpp: the residual buffer
  /// of that call is padded and watched).
  [[nodiscard]] static std::size_t hot_index([[maybe_unused]] const char* kind, std::size_t i,
                                             [[maybe_unused]] std::size_t count) {
#ifdef NDEBUG
    return i;
#else
    return detail::checked(kind, i, count);
#endif
  }
  /// The index of an output or crossing handle, checked in every build: the buffers they
  /// address are sized by the declarations at the run's start and are not padded, and a
  /// check costs little beside what a crossing or output does anyway.
  [[nodiscard]] static std::size_t index(const char* kind, std::size_t i, std::size_t count) {
    return detail::checked(kind, i, count);
  }

  double t_;
  std::span<const double> x_;
  std::span<const double> der_x_;
  std::span<double> r_;
  std::span<double> w_;
  std::span<const double> left_;
  detail::CrossingTable* crossings_;
  EvaluationPhase phase_;
  CrossingValues crossing_values_;
  ResidualValues residual_values_;
};

/// Receives the entries of dF/dx + cj dF/d(der_x) from a model-supplied Jacobian. Entries
/// accumulate (several add() calls for one position sum up); with the sparse (KLU) solver
/// every entry must lie in the declared sparsity pattern.
class JacobianEntries {
 public:
  virtual ~JacobianEntries() = default;
  virtual void add(Eq row, Var col, double value) = 0;
};

/// The interface the simulator drives. Implementations own their discrete state (modes);
/// the simulator owns x, der_x, the crossing Booleans, the row kinds and the time events.
///
/// One model object serves one run at a time: a Simulator (and so simulate()) over a model that
/// is already in a run throws ModelError ("model 'm' is already in use by another run"), also
/// when the other run lives in another thread. The model is in a run (in_simulation()) from
/// the Simulator's construction until its take_result() or its destruction.
///
/// Parameters (ModelStructure::parameters) are set between runs: a Simulator copies the start
/// values and reads the structure when it is constructed, so set_parameter throws ModelError
/// while the model is in a run, and so do the declarations of hdae::Model.
class SimulationModel {
 public:
  SimulationModel() = default;
  /// A copy is a new model: no Simulator drives it yet.
  SimulationModel(const SimulationModel& /*other*/) {}
  SimulationModel& operator=(const SimulationModel& /*other*/) { return *this; }
  virtual ~SimulationModel() = default;

  [[nodiscard]] virtual const ModelStructure& structure() const = 0;

  /// Residuals (always), crossing helpers (always, so their values reach IDA), outputs (when
  /// asked). Throwing is allowed: the simulator stops and rethrows with phase and time.
  virtual void evaluate(Evaluation& e) = 0;

  /// Discrete changes at an event instant; called once per event-iteration pass.
  virtual void on_event(EventContext& /*event*/) {}

  /// True when completed_step() is to hear of every step the integrator completes (asked once
  /// per run).
  [[nodiscard]] virtual bool wants_completed_steps() const { return false; }
  /// After each completed integrator step that ends at t without an event of its own, with the
  /// state there (only when wants_completed_steps()): true asks for an event at t, of kind
  /// EventKind::kStep, as an FMU's fmi3CompletedIntegratorStep asks for Event Mode.
  [[nodiscard]] virtual bool completed_step(double /*t*/, std::span<const double> /*x*/,
                                            std::span<const double> /*der_x*/) {
    return false;
  }

  /// A model that returns true here supplies dF/dx + cj dF/d(der_x) through jacobian();
  /// otherwise the simulator uses difference quotients (coloured ones with KLU).
  [[nodiscard]] virtual bool provides_jacobian() const { return false; }
  virtual void jacobian(double /*t*/, double /*cj*/, std::span<const double> /*x*/,
                        std::span<const double> /*der_x*/, JacobianEntries& /*entries*/) {}
  /// True promises that jacobian() adds dF/dx + cj dF/d(der_x) of the rows at the (t, x,
  /// der_x) it is given, exact (no difference quotient, no matrix of an earlier point), and
  /// that calling it changes nothing, whether or not provides_jacobian() hands it to the Newton
  /// matrix. A run with sensitivities then takes the rows' derivative along s_k from it
  /// (dF/dx s_k + dF/d(der_x) s_k', docs/design.md, "Sensitivities") rather than from
  /// difference quotients of the rows, whose rounding over the quotient's step can stall the
  /// Newton iterations of a stiff model at tight tolerances.
  [[nodiscard]] virtual bool has_exact_jacobian() const { return false; }

  /// Asked after each of IDA's steps: true makes IDA form a new Newton matrix before its next
  /// solve. IDA forms one when cj has changed by a quarter or Newton failed; a model whose
  /// rows without derivatives turn with the state (the rods of a mechanism in Cartesian
  /// coordinates) knows better when its matrix has aged: Newton with an aged matrix stops on
  /// iterates whose error in the algebraic unknowns the error test then rejects.
  [[nodiscard]] virtual bool newton_matrix_aged() { return false; }

  /// A model that returns true here supplies the explicit time derivative of its constraint
  /// rows, d f_c/dt at fixed x, through constraint_time_derivative(); otherwise the simulator
  /// takes a forward difference in t. It enters the consistent derivatives after every event,
  /// (d f_c/dx) der_x = -d f_c/dt (docs/design.md, "The jump solve"), so a prescribed motion or a
  /// fast time-varying source gets der_x to round-off instead of to the difference's error.
  [[nodiscard]] virtual bool provides_constraint_time_derivative() const { return false; }
  /// Writes d f_c/dt of every row that is currently a constraint into dfc_dt (indexed like the
  /// residual; entries of f_d rows are ignored). Throwing is allowed, as in evaluate().
  virtual void constraint_time_derivative(double /*t*/, std::span<const double> /*x*/,
                                          std::span<double> /*dfc_dt*/) {}

  /// Restores the discrete state the model has before a run, and with it the structure of
  /// its start when events changed its unknowns (EventContext::unknowns_changed). Called when
  /// a Simulator takes the model, before it reads the structure, and again by
  /// Simulator::initialize (so at the start of every simulate() too).
  virtual void reset() {}

  /// What the model can tell about a failure of the integration at (t, x, der_x), IDA's last
  /// state: a sentence the solver failure's message ends with, or empty. Called once, after
  /// the failure; what it throws is dropped (the failure stays the message). An index-reduced
  /// model compares its equations' structure there with the one it was reduced for.
  [[nodiscard]] virtual std::string failure_note(double /*t*/, std::span<const double> /*x*/,
                                                 std::span<const double> /*der_x*/) {
    return {};
  }

  /// Sets the parameter called name (ModelStructure::parameters). This default knows no way to
  /// change a parameter: it throws ModelError, listing the known names for an unknown one.
  /// Models built on hdae::Model check the value against the parameter's range (ModelError
  /// naming the parameter, the value and the range) and update what depends on it.
  virtual void set_parameter(std::string_view name, double value);
  /// The current value of the parameter called name; ModelError listing the known names when
  /// the model has no such parameter.
  [[nodiscard]] double parameter(std::string_view name) const;
  /// Sets a parameter while the model is in a run, for the difference quotients of a
  /// sensitivity run (SimulationOptions::sensitivities), which sets it back after each
  /// quotient. Unlike set_parameter it neither checks the range (the run keeps within it) nor
  /// refuses while the model is in a run. This default throws ModelError: the model cannot
  /// vary its parameters. Models built on hdae::Model store the value and call
  /// parameters_changed(); an index-reduced model varies its original's.
  virtual void vary_parameter(std::string_view name, double value);
  /// Before a run evaluates the model, moves the start value of unknown j to value for the
  /// difference quotient of a sensitivity to that start value (a source "start(x_j)"), and
  /// makes the other start values consistent with it as the model's own start does; a call
  /// with the start value the model had sets every start value back. Returns false, doing
  /// nothing, when the model makes no start of its own (this default): its start values are
  /// then independent of each other, and the sensitivity starts as the unit vector e_j. An
  /// index-reduced model projects its slots again, as for a parameter.
  virtual bool vary_start(std::size_t /*j*/, double /*value*/) { return false; }

  /// True while the model is in a run: from the construction of a Simulator over it to that
  /// Simulator's take_result() or destruction.
  [[nodiscard]] bool in_simulation() const { return in_run_.load(std::memory_order_acquire); }

 private:
  friend class detail::ModelInUse;
  /// Atomic: two threads that start runs on one model at once see each other.
  std::atomic<bool> in_run_{false};
};

}  // namespace hdae
