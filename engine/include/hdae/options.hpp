// Options of a simulation run: a plain aggregate with a documented
// default per field and validate(), which throws OptionError naming the field and the rule.
#pragma once

#include <atomic>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hdae {

enum class ColumnKind;  // result.hpp: kState, kDerivative, kOutput

enum class LinearSolverKind {
  kAuto,   ///< KLU when the model declares a sparsity pattern and has >= sparse_min_unknowns
  kDense,  ///< SUNDIALS dense LU; IDA's difference-quotient Jacobian or the model's own
  kKlu,    ///< SuiteSparse KLU with a column-coloured FD Jacobian; needs a declared pattern
};

/// Quadrature of M_d over the Dirac impulse in the jump solve (docs/design.md, "The jump solve").
enum class JumpRule {
  kMidpoint,  ///< M_d((x^- + x^+)/2): ITI paper eq. (8); exact for d(x^2)/dt-like terms
  kEndPoint,  ///< M_d(x^+): as ModiaMath does; kept for comparison
};

/// Kinds of the row sinks a run makes itself (SimulationOptions::sinks, SinkSpec).
enum class SinkKind {
  kMemory,  ///< SimulationResult::table (TableSink)
  kCsv,     ///< a CSV file streamed as the run goes (CsvSink: the format of write_csv)
  kHdf5,    ///< an HDF5 file streamed as the run goes, with the event log, the model's
            ///< parameters and the run's status (Hdf5Sink, hdf5_result.hpp)
};

/// One row sink of SimulationOptions::sinks: where the run's recorded rows go. Written
/// SinkSpec::csv("run.csv"), or as text (parse) "memory", "csv:run.csv", "hdf5:run.h5".
struct SinkSpec {
  SinkKind kind = SinkKind::kMemory;
  /// The file of kCsv and kHdf5, written under a temporary name and renamed over this one when
  /// the run ends (atomic_file.hpp); empty for kMemory.
  std::filesystem::path file;

  [[nodiscard]] static SinkSpec memory() { return {}; }
  [[nodiscard]] static SinkSpec csv(std::filesystem::path file) {
    return {.kind = SinkKind::kCsv, .file = std::move(file)};
  }
  [[nodiscard]] static SinkSpec hdf5(std::filesystem::path file) {
    return {.kind = SinkKind::kHdf5, .file = std::move(file)};
  }
  /// "memory", "csv:<file>" or "hdf5:<file>"; OptionError naming SimulationOptions::sinks
  /// otherwise.
  [[nodiscard]] static SinkSpec parse(std::string_view text);
  friend bool operator==(const SinkSpec&, const SinkSpec&) = default;
};

/// The text form of a sink, as SinkSpec::parse reads it ("csv:run.csv").
[[nodiscard]] std::string to_string(const SinkSpec& sink);

/// Which rows of a run are recorded (SimulationOptions::record_rows).
enum class RecordedRows {
  kGrid,        ///< the output grid (every record_every-th point) and all event rows
  kEventsOnly,  ///< the t0 row(s), both limits at every event and the last row
};

/// IDA's first step after an event that restarts it (SimulationOptions::restart_step;
/// docs/design.md, "Restarts").
enum class RestartStep {
  /// IDA's own estimate (or initial_step_s when set): a tiny first step at order 1, whose
  /// error lies far below the tolerance, and some 20 to 40 steps to get back to the step
  /// size and order before the event.
  kIdaEstimate,
  /// The last step IDA chose by its error estimates before the event (not one shortened to
  /// end on a stop time), bounded so that an order-1 step's error h^2/2 ||x''||, with x''
  /// before the event, uses a twentieth of the tolerance, and a quicker climb back to that step
  /// (larger step growth, a converged corrector): about a third of the steps back to speed,
  /// but the first steps after the event are only as accurate as the tolerance asks.
  kFromHistory,
  /// No restart at order 1: IDA goes on at the order and step size it had before the event,
  /// its history (the polynomial through its last steps) shifted to meet the right limit in
  /// value, slope and curvature (the consistent derivatives differentiated along the
  /// solution). Exact when the event changes no higher derivative (a bounce, a switched
  /// source on a parabola); otherwise IDA's error test on the first steps lowers step and
  /// order as after any rejected step. After a crossing flipped the first step is that of
  /// kFromHistory, so the crossing is seen leaving zero. Events that change which unknowns
  /// are algebraic restart as under kFromHistory.
  kKeepOrder,
};

/// The integrator of a run (SimulationOptions::method; docs/design.md, "Integrators"). The
/// methods other than kIda and kAuto take models that are explicit ODEs in every mode they
/// reach: no constraint rows, and every row holds exactly one derivative, with a coefficient
/// that may depend on t and x (m(x) v' = F is one).
enum class IntegrationMethod {
  kIda,    ///< SUNDIALS' IDA (variable-order BDF on F(t, x, x') = 0) for every model
  kAuto,   ///< IDA for DAEs; for explicit ODEs an explicit Runge-Kutta pair (kErk) that
           ///< moves to CVODE's BDF while a stiffness estimate says its steps are held by
           ///< stability rather than accuracy, and back when they are not
  kBdf,    ///< CVODE's BDF with a dense Newton matrix: stiff explicit ODEs
  kAdams,  ///< CVODE's Adams-Moulton (orders 1 to 12, fixed-point iteration): non-stiff ODEs
  kErk,    ///< ARKODE's explicit Runge-Kutta with the Dormand-Prince 5(4) pair: non-stiff ODEs
};

/// The option's name of a method, as the command line and Python spell it ("ida", "auto",
/// "bdf", "adams", "erk").
[[nodiscard]] const char* to_string(IntegrationMethod method);
/// The method of a name as to_string spells it; OptionError naming SimulationOptions::method
/// and the names otherwise.
[[nodiscard]] IntegrationMethod parse_integration_method(std::string_view name);

enum class LogLevel { kOff, kError, kWarning, kInfo, kDebug };

using LogSink = std::function<void(LogLevel, std::string_view)>;

/// validate() also refuses an enum field holding no enumerator (a value cast from an int),
/// naming the field and the enumerators.
struct SimulationOptions {
  // --- Integration (IDA) ---------------------------------------------------------------
  /// The integrator; kIda (default) runs every model on IDA. The others are for explicit
  /// ODEs (see IntegrationMethod); a run that meets a mode that is not one ends with a model
  /// failure naming the row, except under kAuto, which takes IDA there. Only kIda and kAuto
  /// combine with sensitivities and with linear_solver kKlu.
  IntegrationMethod method = IntegrationMethod::kIda;
  /// Start time t0 in s; finite.
  double start_s = 0.0;
  /// Stop time in s; finite, and stop_s - start_s finite and larger than the time resolution of
  /// the run, 1000 u max(|start_s|, |stop_s|, 1) with u the unit roundoff (the times IDA cannot
  /// tell apart; output_interval_s, max_step_s and initial_step_s are held to it too).
  double stop_s = 1.0;
  /// IDA relative tolerance; in [1e-15, 1): IDA cannot meet a smaller one in double precision
  /// (it stops with "too much accuracy requested" when u ||x||_WRMS > 1, and ||x||_WRMS can
  /// reach 1/rel_tol).
  double rel_tol = 1e-6;
  /// Absolute tolerance of x[i] is abs_tol_factor * rel_tol * nominal[i]; > 0.
  double abs_tol_factor = 0.01;
  /// Exclude algebraic unknowns (no der_x of theirs in any f_d row) from IDA's error test, as
  /// ErrorControl::kExcluded variables always are. Off by default: an algebraic variable then
  /// has the accuracy of the others, also on output rows between steps, which IDA
  /// interpolates. On, IDA's steps follow the differential variables only (fewer steps; an
  /// algebraic variable that varies faster than they do is accurate only at the steps).
  /// SUNDIALS' IDA guide discourages suppression for index-1 systems, which hdae integrates.
  bool suppress_algebraic = false;
  /// Largest step in s; 0 means no limit; otherwise at least the time resolution (stop_s).
  double max_step_s = 0.0;
  /// Most IDA steps between two stored rows (output points, event rows); >= 1. More end the
  /// run with Outcome::kSolverFailure (IDA_TOO_MUCH_WORK).
  long max_steps_per_interval = 100000;
  /// Linear solver of IDA's Newton iteration; the re-initialization follows the same choice
  /// (sparse matrices and KLU, or dense LU).
  LinearSolverKind linear_solver = LinearSolverKind::kAuto;
  /// Size from which kAuto takes the sparse path (when the model declares a sparsity
  /// pattern): IDA with KLU and a coloured Jacobian, sparse jump solves; >= 1.
  std::size_t sparse_min_unknowns = 50;
  /// Highest order of IDA's BDF formulas (IDASetMaxOrd); in [1, 5]. Lower orders are more
  /// robust for rough problems and take more steps for smooth ones.
  int max_order = 5;
  /// Safety factor of IDA's Newton convergence test (IDASetNonlinConvCoef): the corrector
  /// stops when its estimated error is below this fraction of the local error test's scale;
  /// in (0, 1]. IDA's 0.33 leaves algebraic relations satisfied to about a third of the
  /// tolerance; smaller values hold them tighter for a few more Newton iterations.
  double nonlinear_convergence_coef = 0.33;
  /// IDA keeps its step size until its error estimate allows one at least this many times
  /// larger (the upper bound of IDASetEtaFixedStepBounds; IDA's own is 2); >= 1, IDA only.
  /// IDA raises the order only after k + 2 steps of one size, and a model whose outputs
  /// amplify the errors of its states strongly (the transistor amplifier) can see each change
  /// of step size as an error of its outputs: at tight tolerances IDA then stays at order 1,
  /// every doubling failing its error test. A larger threshold holds the step long enough for
  /// the order to rise, at the cost of more steps where the doublings would have succeeded.
  double step_growth_threshold = 2.0;
  /// First step size in s at t0 and after every event that restarts IDA (IDASetInitStep),
  /// unless restart_step is kFromHistory or kKeepOrder, which replace it after events; 0 lets IDA
  /// estimate it (docs/design.md, "Restarts"); otherwise at least the time resolution (stop_s).
  double initial_step_s = 0.0;
  /// IDA's first step after an event that restarts it. kIdaEstimate (default) is the most
  /// accurate; kFromHistory saves about two thirds of the steps a restart costs, with the
  /// restarted steps as accurate as the tolerance asks; kKeepOrder does not restart at order 1
  /// (docs/design.md, "Restarts", has the trade-offs).
  /// A time event that changes nothing IDA sees does not restart it under either.
  RestartStep restart_step = RestartStep::kIdaEstimate;
  /// Output times as an alternative to the grid of output_interval_s: one row at each listed
  /// time (interpolated from IDA's steps, like grid rows), besides the rows at t0, at events
  /// and at stop_s. Empty: the grid. Non-empty: finite, strictly increasing, within
  /// [start_s, stop_s], and output_interval_s unset.
  std::vector<double> output_times;
  /// IDA's steps end on every output time too (a stop time at each), so an output row is a
  /// solution of IDA's corrector rather than an interpolation between steps: algebraic
  /// relations (constraints, the hidden constraints of an index-reduced model) then hold on
  /// every output row to the Newton tolerance instead of to the interpolation error. Costs
  /// the extra steps of a grid finer than IDA's own steps.
  bool step_to_outputs = false;
  /// Threads of IDA's vector operations: 0 or 1 (default) use SUNDIALS' serial N_Vector; n > 1
  /// its OpenMP N_Vector with n threads, whose every operation (the linear combinations of the
  /// BDF formulas, the weighted norms of the error test and the Newton iteration) is one
  /// parallel loop over the unknowns. The model's residual, the Jacobian, KLU or the dense LU,
  /// the events and the recording stay on the calling thread. Each vector operation opens a
  /// parallel region, so threads can pay only for 10^5 unknowns and more, and only when the
  /// cores are free: threads that wait spinning (libgomp's default) or that the system
  /// schedules late make every operation wait for them. docs/benchmarks.md, "Threads", has
  /// the measurements, also with OMP_WAIT_POLICY=passive (idle threads sleep), which libgomp
  /// reads from the environment at program start. The reductions add the threads' partial
  /// sums, so results differ from the serial run by round-off; with two threads always in
  /// the same way, with more in the order the threads finish, so that repeated runs may take
  /// different steps and differ within the tolerance. A value above the machine's hardware
  /// threads is accepted: OpenMP starts that many threads, they share the cores and every
  /// operation waits for the slowest, so the run gets slower. In [0, 256].
  int threads = 1;

  // --- Sensitivities (docs/design.md, "Sensitivities") -------------------------------------
  /// Forward sensitivities dx/dp integrated beside the state: each entry a parameter's name
  /// (ModelStructure::parameters, not an integer one) or "start(<variable>)" for a start
  /// value. Each adds one unknown per unknown of the model, named "d(<x>)/d(<entry>)", and
  /// one output per output, "d(<y>)/d(<entry>)", to the results; they jump at events as the
  /// state's derivative with respect to the entry does, the event time's dependence included.
  /// Names the model does not know, duplicates, and rel_tol below 1e-9 are OptionErrors when
  /// the run is created.
  std::vector<std::string> sensitivities;
  /// Whether the sensitivities are in IDA's local error test (as IDAS's full error
  /// control), at tolerances scaled by each parameter's magnitude; off, the steps follow
  /// the state alone and the sensitivities are as accurate as that makes them.
  bool sensitivity_error_control = true;

  // --- Events ------------------------------------------------------------------------------
  /// Most passes of the event iteration at one instant; >= 1.
  int max_event_iterations = 20;
  /// Guard band of a crossing IDA has just located, relative to the crossing's nominal; in
  /// (0, 1e-3]. IDA locates c = 0 of the unshifted crossing value; within the event iteration
  /// that follows, that crossing's Boolean flips back only when a jump moves c farther than
  /// this band to its old side, so round-off at the root (c a hair on the old side) never
  /// undoes the event (docs/design.md, "The event loop"). It does not shift event times.
  double crossing_hysteresis = 1e-10;
  // Chattering and Zeno behaviour (events/chattering.hpp): three rules watch the times of
  // consecutive state events and end the run with Outcome::kChattering, naming the crossings
  // and the time, before it crawls through an endless sequence of events. Time events are
  // not watched (the model schedules them itself).
  //  - Zeno: over chattering_event_count events the spacing shrinks at every event and by
  //    more than a factor 100 in all (a bouncing ball without a rest rule); the message
  //    gives the extrapolated accumulation time.
  //  - tiny spacing: chattering_event_count consecutive spacings are all below
  //    chattering_min_relative_spacing * max(|t|, stop_s - start_s), close to the time
  //    resolution of the integrator.
  //  - dense events: chattering_dense_event_count consecutive events lie within less than
  //    chattering_dense_span_fraction * (stop_s - start_s): at that rate the interval would
  //    need more than count / fraction events (2e6 by default; a relay in sliding mode
  //    switching every few microseconds). Evenly spaced events of a legitimate model stay
  //    well below that (an elastic ball with 10^5 impacts over 9e4 s needs 1/20 of the
  //    default budget), and a burst of fewer than chattering_dense_event_count events never
  //    counts. A model that really needs more events raises the count or lowers the fraction.
  /// Events in the window of the Zeno and tiny-spacing rules; >= 3.
  int chattering_event_count = 25;
  /// Spacing, relative to max(|t|, stop_s - start_s), below which events count as
  /// accumulating; in [0, 1e-3]; 0 disables the tiny-spacing rule.
  double chattering_min_relative_spacing = 1e-10;
  /// Events in the window of the dense-events rule; >= 3.
  int chattering_dense_event_count = 1000;
  /// Fraction of stop_s - start_s within which chattering_dense_event_count events count as
  /// chattering; in [0, 1); 0 disables the dense-events rule.
  double chattering_dense_span_fraction = 5e-4;

  // --- Re-initialization (the jump solve at t0 and after every event) ---------------------
  /// Rule for M_d over the impulse in the jump solve.
  JumpRule jump_rule = JumpRule::kMidpoint;
  /// Jump-solve Newton tolerance relative to rel_tol (scaled residual); in (0, 1].
  double jump_tol_factor = 1e-3;
  /// Most Newton iterations of one jump solve; >= 1.
  int max_jump_iterations = 50;

  // --- Output ------------------------------------------------------------------------------
  /// Output grid spacing in s when set: > 0, at least the time resolution of the run
  /// (1000 u max(|start_s|, |stop_s|, 1), u the unit round-off) and at most 1e9 output points
  /// in all; unset means (stop_s - start_s) / 500.
  std::optional<double> output_interval_s;
  /// Where the recorded rows go: row sinks the run makes itself, in this order, before those
  /// added with Simulator::add_row_sink. kMemory keeps them in SimulationResult::table;
  /// kCsv and kHdf5 stream them to a file as they are produced (in chunks of about 64 KiB),
  /// so the rows survive an interruption and a long run needs no memory for them. Empty: the
  /// rows go to the added sinks only. At most one kMemory, no file twice, a file for kCsv and
  /// kHdf5 and none for kMemory.
  std::vector<SinkSpec> sinks{SinkSpec::memory()};
  // What is recorded (results/row_recorder.hpp): every sink — the result table, a CSV or HDF5
  // file, the user's — gets the same selected columns (RowSink::begin) and rows.
  /// Columns recorded by name or glob ('*' any run of characters, '?' one character, e.g.
  /// "*.v", "der(*)"); a column is recorded when it matches one of these or its kind is in
  /// record_kinds. Both empty: every column. A pattern that matches no column of the model is
  /// an OptionError naming it (when the run is created).
  std::vector<std::string> record_columns;
  /// Kinds recorded whole (ColumnKind::kState, kDerivative, kOutput); see record_columns. A
  /// kind the model has no column of is an OptionError.
  std::vector<ColumnKind> record_kinds;
  /// Rows recorded. Both limits at every event, the t0 row(s) and the last row of the run
  /// are always recorded; kEventsOnly drops the output grid between them.
  RecordedRows record_rows = RecordedRows::kGrid;
  /// With kGrid: the output point t0 + k dt is recorded when k is a multiple of this; >= 1.
  /// The numbering follows the grid, so slicing a run does not change which rows are kept.
  std::size_t record_every = 1;

  // --- Limits ------------------------------------------------------------------------------
  /// Stop with Outcome::kWallClockLimit after this much wall-clock time (s); 0: no limit;
  /// otherwise > 0.
  double max_wall_time_s = 0.0;
  /// Largest result held in memory, in bytes: the table's rows (a kMemory sink) and the
  /// event log; > 0. A run whose output grid (output_interval_s or output_times, record_rows,
  /// record_every) and recorded columns alone would exceed it is refused when it is created
  /// (OptionError naming the options and the size); one whose events (their rows and records)
  /// take it past the limit ends there with Outcome::kResultLimit, its result kept, instead of
  /// growing until memory runs out. Rows that go to files or to added sinks are not counted.
  double max_result_bytes = 8e9;
  /// When non-null and set to true (e.g. from a SIGINT handler or an event handler), the run
  /// stops with Outcome::kInterrupted at the next residual evaluation, step, output row or
  /// event-iteration pass.
  const std::atomic<bool>* cancel = nullptr;

  // --- Logging -----------------------------------------------------------------------------
  /// Messages at or above this level go to log_sink.
  LogLevel log_level = LogLevel::kWarning;
  /// Receiver of log messages (hdae's and IDA's own); when empty, messages go to standard
  /// error.
  LogSink log_sink;

  /// Throws OptionError naming the first violated field and its rule.
  void validate() const;
  /// output_interval_s with the default resolved.
  [[nodiscard]] double resolved_output_interval_s() const;
  /// Whether a sink of sinks keeps the rows in memory (SinkKind::kMemory).
  [[nodiscard]] bool keeps_rows_in_memory() const;
  /// OptionError naming max_result_bytes when the output grid's rows, of `columns` recorded
  /// values each (time not counted), held in memory would take more than max_result_bytes;
  /// nothing when no sink keeps the rows in memory. Every run, a Simulator's or an FMU's
  /// Co-Simulation, checks this before its first step.
  void check_result_size(std::size_t columns) const;
};

}  // namespace hdae
