// hdae.SimulationOptions: the C++ aggregate with the same field names. hdae.simulate() and
// hdae.Simulator() fill it from keyword arguments (python/hdae/_options.py); validate() throws
// hdae.OptionError (a ValueError) with the C++ message naming the field.
#include <limits>

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
  py::enum_<RowStorage>(m, "RowStorage")
      .value("in_memory", RowStorage::kInMemory)
      .value("stream_only", RowStorage::kStreamOnly);
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

}  // namespace

void bind_options(py::module_& m) {
  bind_integer_ranges(m);
  bind_option_enums(m);
  using O = SimulationOptions;
  py::class_<O>(m, "SimulationOptions",
                "Options of a run; fields and rules as hdae::SimulationOptions "
                "(engine/include/hdae/options.hpp).")
      .def(py::init<>())
      .def_readwrite("start_s", &O::start_s)
      .def_readwrite("stop_s", &O::stop_s)
      .def_readwrite("rel_tol", &O::rel_tol)
      .def_readwrite("abs_tol_factor", &O::abs_tol_factor)
      .def_readwrite("suppress_algebraic", &O::suppress_algebraic)
      .def_readwrite("max_step_s", &O::max_step_s)
      .def_readwrite("max_steps_per_interval", &O::max_steps_per_interval)
      .def_readwrite("linear_solver", &O::linear_solver)
      .def_readwrite("sparse_min_unknowns", &O::sparse_min_unknowns)
      .def_readwrite("max_order", &O::max_order)
      .def_readwrite("initial_step_s", &O::initial_step_s)
      .def_readwrite("restart_step", &O::restart_step)
      .def_readwrite("nonlinear_convergence_coef", &O::nonlinear_convergence_coef)
      .def_readwrite("step_to_outputs", &O::step_to_outputs)
      .def_readwrite("threads", &O::threads)
      .def_readwrite("max_event_iterations", &O::max_event_iterations)
      .def_readwrite("crossing_hysteresis", &O::crossing_hysteresis)
      .def_readwrite("chattering_event_count", &O::chattering_event_count)
      .def_readwrite("chattering_min_relative_spacing", &O::chattering_min_relative_spacing)
      .def_readwrite("chattering_dense_event_count", &O::chattering_dense_event_count)
      .def_readwrite("chattering_dense_span_fraction", &O::chattering_dense_span_fraction)
      .def_readwrite("jump_rule", &O::jump_rule)
      .def_readwrite("jump_tol_factor", &O::jump_tol_factor)
      .def_readwrite("max_jump_iterations", &O::max_jump_iterations)
      .def_readwrite("output_interval_s", &O::output_interval_s)
      .def_readwrite("output_times", &O::output_times)
      .def_readwrite("stream_csv_path", &O::stream_csv_path)
      .def_readwrite("row_storage", &O::row_storage)
      .def_readwrite("record_columns", &O::record_columns)
      .def_readwrite("record_kinds", &O::record_kinds)
      .def_readwrite("record_rows", &O::record_rows)
      .def_readwrite("record_every", &O::record_every)
      .def_readwrite("max_wall_time_s", &O::max_wall_time_s)
      .def_readwrite("max_result_bytes", &O::max_result_bytes)
      .def_readwrite("log_level", &O::log_level)
      .def("validate", &O::validate)
      .def("resolved_output_interval_s", &O::resolved_output_interval_s);
}

}  // namespace hdae::python
