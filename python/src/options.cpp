// hdae.SimulationOptions: the C++ aggregate with the same field names. hdae.simulate() and
// hdae.Simulator() fill it from keyword arguments (python/hdae/_options.py); validate() throws
// hdae.OptionError (a ValueError) with the C++ message naming the field.
#include <limits>

#include <pybind11/operators.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include "bindings.hpp"
#include "hdae/options.hpp"
#include "hdae/result.hpp"

namespace py = pybind11;

namespace hdae::python {

namespace {

void bind_option_enums(py::module_& m) {
  py::enum_<LinearSolverKind>(m, "LinearSolverKind")
      .value("auto", LinearSolverKind::kAuto)
      .value("dense", LinearSolverKind::kDense)
      .value("klu", LinearSolverKind::kKlu);
  py::enum_<JumpRule>(m, "JumpRule")
      .value("midpoint", JumpRule::kMidpoint)
      .value("end_point", JumpRule::kEndPoint);
  py::enum_<RestartStep>(m, "RestartStep")
      .value("ida_estimate", RestartStep::kIdaEstimate)
      .value("from_history", RestartStep::kFromHistory)
      .value("keep_order", RestartStep::kKeepOrder);
  py::enum_<IntegrationMethod>(m, "IntegrationMethod")
      .value("ida", IntegrationMethod::kIda)
      .value("auto", IntegrationMethod::kAuto)
      .value("bdf", IntegrationMethod::kBdf)
      .value("adams", IntegrationMethod::kAdams)
      .value("erk", IntegrationMethod::kErk);
  py::enum_<RecordedRows>(m, "RecordedRows")
      .value("grid", RecordedRows::kGrid)
      .value("events_only", RecordedRows::kEventsOnly);
  // The kinds a run records whole (SimulationOptions::record_kinds), named as result.kinds
  // names its columns' kinds.
  py::enum_<ColumnKind>(m, "ColumnKind")
      .value("state", ColumnKind::kState)
      .value("derivative", ColumnKind::kDerivative)
      .value("output", ColumnKind::kOutput);
  py::enum_<LogLevel>(m, "LogLevel")
      .value("off", LogLevel::kOff)
      .value("error", LogLevel::kError)
      .value("warning", LogLevel::kWarning)
      .value("info", LogLevel::kInfo)
      .value("debug", LogLevel::kDebug);
}

/// hdae.SinkSpec: one entry of SimulationOptions::sinks, made from its text form
/// ("memory", "csv:run.csv", "hdf5:run.h5"), which str() gives back.
void bind_sink_spec(py::module_& m) {
  py::enum_<SinkKind>(m, "SinkKind")
      .value("memory", SinkKind::kMemory)
      .value("csv", SinkKind::kCsv)
      .value("hdf5", SinkKind::kHdf5);
  py::class_<SinkSpec>(m, "SinkSpec",
                       "Where a run's rows go: 'memory' (the result's table), 'csv:<file>' or "
                       "'hdf5:<file>' (a file written as the run goes).")
      .def(py::init(&SinkSpec::parse), py::arg("text"))
      .def_readonly("kind", &SinkSpec::kind)
      .def_readonly("file", &SinkSpec::file)
      .def("__str__", [](const SinkSpec& s) { return to_string(s); })
      .def("__repr__", [](const SinkSpec& s) { return "SinkSpec('" + to_string(s) + "')"; })
      // NOLINTNEXTLINE(misc-redundant-expression): pybind11 binds __eq__ from this expression
      .def(py::self == py::self);
}

/// (lowest, highest) of the C++ type of an integer field: python/hdae/_options.py refuses a value
/// outside it with hdae.OptionError naming the field (pybind11's conversion would fail with
/// "incompatible function arguments", naming no field).
template <class T>
py::tuple type_range(T SimulationOptions::* /*field*/) {
  return py::make_tuple(std::numeric_limits<T>::lowest(), std::numeric_limits<T>::max());
}

void bind_integer_ranges(py::module_& m) {
  using O = SimulationOptions;
  py::dict ranges;
  ranges["max_steps_per_interval"] = type_range(&O::max_steps_per_interval);
  ranges["sparse_min_unknowns"] = type_range(&O::sparse_min_unknowns);
  ranges["max_order"] = type_range(&O::max_order);
  ranges["threads"] = type_range(&O::threads);
  ranges["max_event_iterations"] = type_range(&O::max_event_iterations);
  ranges["chattering_event_count"] = type_range(&O::chattering_event_count);
  ranges["chattering_dense_event_count"] = type_range(&O::chattering_dense_event_count);
  ranges["max_jump_iterations"] = type_range(&O::max_jump_iterations);
  ranges["record_every"] = type_range(&O::record_every);
  m.attr("_integer_option_ranges") = ranges;
}

/// The time span of a run and the integrator's tolerances.
void bind_run_span_and_tolerances(py::class_<SimulationOptions>& cls) {
  using O = SimulationOptions;
  cls.def_readwrite("start_s", &O::start_s, "Start time of the run, in s; finite.")
      .def_readwrite("stop_s", &O::stop_s,
                     "End time of the run, in s; finite, and after start_s by more than the run's "
                     "time resolution (1000 u max(|start_s|, |stop_s|, 1), u the unit round-off).")
      .def_readwrite("rel_tol", &O::rel_tol,
                     "Relative tolerance of the integrator (IDA); in [1e-15, 1).")
      .def_readwrite("abs_tol_factor", &O::abs_tol_factor,
                     "Absolute tolerance of each unknown as a multiple of rel_tol times the "
                     "unknown's nominal value; > 0.")
      .def_readwrite("suppress_algebraic", &O::suppress_algebraic,
                     "Leave algebraic unknowns out of IDA's error test: fewer steps, but those "
                     "unknowns are then accurate only at the steps, not between them.");
}

/// How IDA steps: step sizes, the linear solver, the order, the Newton iterations, threads.
void bind_integrator_options(py::class_<SimulationOptions>& cls) {
  using O = SimulationOptions;
  cls.def_readwrite("method", &O::method,
                    "The integrator: 'ida' (IDA's BDF, any model; the default), 'auto' (IDA for "
                    "DAEs; explicit ODEs on an explicit Runge-Kutta pair, moved to CVODE's BDF "
                    "while they are stiff), 'bdf' (CVODE's BDF), 'adams' (CVODE's Adams-Moulton) "
                    "or 'erk' (ARKODE's explicit Runge-Kutta); the last three for models that are "
                    "explicit ODEs only.")
      .def_readwrite("max_step_s", &O::max_step_s,
                     "Largest integration step, in s; 0 for no limit, otherwise at least the run's "
                     "time resolution.")
      .def_readwrite(
          "max_steps_per_interval", &O::max_steps_per_interval,
          "Most IDA steps between two recorded rows; more end the run as a solver failure; >= 1.")
      .def_readwrite("linear_solver", &O::linear_solver,
                     "Linear solver of the Newton iterations: 'auto' (sparse KLU for large models "
                     "with a declared sparsity pattern, dense otherwise), 'dense' (dense LU) or "
                     "'klu' (sparse; the model must declare its pattern).")
      .def_readwrite("sparse_min_unknowns", &O::sparse_min_unknowns,
                     "Number of unknowns from which linear_solver 'auto' takes the sparse path, "
                     "for models that declare a sparsity pattern; >= 1.")
      .def_readwrite("max_order", &O::max_order,
                     "Highest order of IDA's BDF formulas; in [1, 5]. Lower orders suit rough "
                     "problems better and take more steps on smooth ones.")
      .def_readwrite(
          "initial_step_s", &O::initial_step_s,
          "First step size, in s, at the start and after restarts at events (unless restart_step "
          "chooses it); 0 lets IDA estimate it, otherwise at least the run's time resolution.")
      .def_readwrite("restart_step", &O::restart_step,
                     "How IDA resumes after an event: 'ida_estimate' (a small first step at order "
                     "1; most accurate), 'from_history' (the step size before the event; fewer "
                     "steps) or 'keep_order' (goes on at the order and step size it had).")
      .def_readwrite(
          "nonlinear_convergence_coef", &O::nonlinear_convergence_coef,
          "Safety factor of the Newton convergence test, as a fraction of the local error test's "
          "scale; in (0, 1]. Smaller values hold algebraic equations more tightly.")
      .def_readwrite(
          "step_growth_threshold", &O::step_growth_threshold,
          "IDA keeps its step size until its error estimate allows one this many times larger "
          "(IDA's own 2); >= 1. Larger holds the step long enough for IDA to raise its order "
          "where each change of step disturbs the error estimates; costs steps elsewhere.")
      .def_readwrite(
          "step_to_outputs", &O::step_to_outputs,
          "Make IDA end a step on every output time, so that output rows solve the equations to "
          "the Newton tolerance instead of being interpolated; costs extra steps.")
      .def_readwrite(
          "threads", &O::threads,
          "Threads for IDA's vector operations: 0 or 1 serial, n > 1 OpenMP with n threads (worth "
          "it only for some 1e5 unknowns and more, on idle cores); in [0, 256].")
      .def_readwrite(
          "sensitivities", &O::sensitivities,
          "Parameters and start values to differentiate by, e.g. ['L', 'start(w)']: the run "
          "adds columns 'd(<column>)/d(<name>)' for every unknown and output, right through "
          "events. Needs rel_tol >= 1e-9.")
      .def_readwrite("sensitivity_error_control", &O::sensitivity_error_control,
                     "Put the sensitivities in IDA's local error test (at the state's tolerances "
                     "divided by the parameter's size); off, the steps follow the state alone.");
}

/// Events: the event iteration, crossings, the chattering checks and the jump solve.
void bind_event_options(py::class_<SimulationOptions>& cls) {
  using O = SimulationOptions;
  cls.def_readwrite("max_event_iterations", &O::max_event_iterations,
                    "Most passes of the event iteration at one instant; >= 1.")
      .def_readwrite("crossing_hysteresis", &O::crossing_hysteresis,
                     "Band, relative to a crossing's nominal value, that a jump must carry a "
                     "just-located crossing past before it flips back; in (0, 1e-3].")
      .def_readwrite(
          "chattering_event_count", &O::chattering_event_count,
          "Consecutive state events examined by the Zeno and tiny-spacing chattering checks; >= 3.")
      .def_readwrite("chattering_min_relative_spacing", &O::chattering_min_relative_spacing,
                     "Spacing of state events, relative to max(|t|, stop_s - start_s), below which "
                     "they count as chattering; in [0, 1e-3]; 0 turns this check off.")
      .def_readwrite(
          "chattering_dense_event_count", &O::chattering_dense_event_count,
          "Consecutive state events examined by the dense-events chattering check; >= 3.")
      .def_readwrite("chattering_dense_span_fraction", &O::chattering_dense_span_fraction,
                     "Fraction of stop_s - start_s within which chattering_dense_event_count state "
                     "events count as chattering; in [0, 1); 0 turns this check off.")
      .def_readwrite("jump_rule", &O::jump_rule,
                     "Where the jump solve evaluates the impulse term: 'midpoint' (at the mean of "
                     "the left and right limits) or 'end_point' (at the right limit).")
      .def_readwrite("jump_tol_factor", &O::jump_tol_factor,
                     "Newton tolerance of the jump solve relative to rel_tol; in (0, 1].")
      .def_readwrite("max_jump_iterations", &O::max_jump_iterations,
                     "Most Newton iterations of one jump solve; >= 1.");
}

/// What a run records: the output grid, where the rows go, the columns and rows kept.
void bind_output_options(py::class_<SimulationOptions>& cls) {
  using O = SimulationOptions;
  cls.def_readwrite("output_interval_s", &O::output_interval_s,
                    "Spacing of the output grid, in s; None means (stop_s - start_s) / 500. When "
                    "set: > 0, at least the run's time resolution, at most 1e9 points.")
      .def_readwrite("output_times", &O::output_times,
                     "Output times to use instead of the grid: finite, strictly increasing, within "
                     "[start_s, stop_s], with output_interval_s unset; empty means the grid.")
      .def_readwrite("sinks", &O::sinks,
                     "Where the rows go, a list of 'memory' (the result's table), 'csv:<file>' and "
                     "'hdf5:<file>' (files written as the run goes: the rows survive an "
                     "interruption and need no memory); at most one 'memory', no file twice. "
                     "Empty: the rows are kept nowhere.")
      .def_readwrite(
          "record_columns", &O::record_columns,
          "Names or glob patterns ('*', '?') of the columns to record, e.g. 'der(*)'; with "
          "record_kinds also empty, all columns. A pattern matching no column is an error.")
      .def_readwrite(
          "record_kinds", &O::record_kinds,
          "Kinds of columns recorded whole: 'state', 'derivative', 'output' (see record_columns).")
      .def_readwrite("record_rows", &O::record_rows,
                     "Rows recorded: 'grid' (the output points and all event rows) or "
                     "'events_only' (the first rows, both limits of each event and the last row).")
      .def_readwrite("record_every", &O::record_every,
                     "With record_rows 'grid', record every n-th output point only (numbered from "
                     "start_s); >= 1.");
}

/// The limits of a run's wall-clock time and memory, and its log.
void bind_limit_options(py::class_<SimulationOptions>& cls) {
  using O = SimulationOptions;
  cls.def_readwrite("max_wall_time_s", &O::max_wall_time_s,
                    "Wall-clock time limit of the run, in s, after which it stops with status "
                    "'wall-clock limit'; 0 for no limit.")
      .def_readwrite("max_result_bytes", &O::max_result_bytes,
                     "Most bytes of result held in memory (table rows and event log); > 0. A run "
                     "whose grid alone exceeds it is refused; one that reaches it through events "
                     "ends there, keeping its result.")
      .def_readwrite("log_level", &O::log_level,
                     "Lowest level of the messages written to standard error: 'off', 'error', "
                     "'warning', 'info' or 'debug'.");
}

}  // namespace

void bind_options(py::module_& m) {
  bind_integer_ranges(m);
  bind_option_enums(m);
  bind_sink_spec(m);
  using O = SimulationOptions;
  py::class_<O> cls(m, "SimulationOptions",
                    "Options of a run; fields and rules as hdae::SimulationOptions "
                    "(engine/include/hdae/options.hpp).");
  cls.def(py::init<>());
  bind_run_span_and_tolerances(cls);
  bind_integrator_options(cls);
  bind_event_options(cls);
  bind_output_options(cls);
  bind_limit_options(cls);
  cls.def("validate", &O::validate)
      .def("resolved_output_interval_s", &O::resolved_output_interval_s);
}

}  // namespace hdae::python
