// hdae.Result: the table as read-only numpy views without copies (time is one contiguous
// vector; a column is a strided view into the row-major values, stride = columns x 8 bytes),
// the event log, the status and the statistics. pandas and plotting are added in Python
// (python/hdae/_result.py).
#include <filesystem>
#include <string>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include "bindings.hpp"
#include "hdae/csv.hpp"
#include "result_object.hpp"

namespace py = pybind11;

namespace hdae::python {

py::object wrap_result(std::shared_ptr<const SimulationResult> result,
                       std::vector<ParameterInfo> parameters) {
  return py::cast(ResultObject{std::move(result), std::move(parameters)});
}

py::dict statistics_dict(const Statistics& s) {
  py::dict d;
  d["steps"] = s.steps;
  d["residual_evaluations"] = s.residual_evaluations;
  d["jacobian_residual_evaluations"] = s.jacobian_residual_evaluations;
  d["jacobian_evaluations"] = s.jacobian_evaluations;
  d["error_test_failures"] = s.error_test_failures;
  d["convergence_failures"] = s.convergence_failures;
  d["root_function_evaluations"] = s.root_function_evaluations;
  d["time_events"] = s.time_events;
  d["state_events"] = s.state_events;
  d["step_events"] = s.step_events;
  d["event_iterations"] = s.event_iterations;
  d["max_event_iterations"] = s.max_event_iterations;
  d["restarts"] = s.restarts;
  d["jump_solves"] = s.jump_solves;
  d["jump_newton_iterations"] = s.jump_newton_iterations;
  d["jacobian_colors"] = s.jacobian_colors;
  d["integrator"] = s.integrator;
  d["method_switches"] = s.method_switches;
  d["jacobian_time_s"] = s.jacobian_time_s;
  d["wall_time_s"] = s.wall_time_s;
  return d;
}

namespace {

/// A read-only view of n doubles from data, stride_bytes apart, kept alive by owner.
py::array view(const double* data, py::ssize_t n, py::ssize_t stride_bytes,
               const py::handle& owner) {
  static const double kEmpty = 0.0;
  py::array_t<double> a({n}, {stride_bytes}, n > 0 ? data : &kEmpty, owner);
  a.attr("setflags")(py::arg("write") = false);
  return a;
}

py::array column_view(const py::object& self, const std::string& name) {
  const ResultTable& table = self.cast<const ResultObject&>().result->table;
  std::size_t index = 0;
  try {
    index = table.column_index(name);
  } catch (const std::out_of_range&) {
    throw py::key_error("no column '" + name + "' in the result (see Result.columns)");
  }
  const auto rows = static_cast<py::ssize_t>(table.num_rows());
  const double* base = rows > 0 ? table.row(0).data() + index : nullptr;
  const auto stride = static_cast<py::ssize_t>(table.num_columns() * sizeof(double));
  return view(base, rows, stride, self);
}

py::array values_view(const py::object& self) {
  const ResultTable& table = self.cast<const ResultObject&>().result->table;
  const auto rows = static_cast<py::ssize_t>(table.num_rows());
  const auto cols = static_cast<py::ssize_t>(table.num_columns());
  static const double kEmpty = 0.0;
  const double* base = rows > 0 ? table.row(0).data() : &kEmpty;
  const auto size = static_cast<py::ssize_t>(sizeof(double));
  py::array_t<double> a({rows, cols}, {cols * size, size}, base, self);
  a.attr("setflags")(py::arg("write") = false);
  return a;
}

void bind_records(py::module_& m) {
  py::class_<SimulationStatus>(m, "Status", "How a run ended: outcome, time reached, message.")
      .def_property_readonly(
          "outcome", [](const SimulationStatus& s) { return std::string(to_string(s.outcome)); })
      .def_readonly("t", &SimulationStatus::t)
      .def_readonly("message", &SimulationStatus::message)
      .def_property_readonly("ok", &SimulationStatus::ok)
      .def("__repr__", [](const SimulationStatus& s) {
        return "Status(outcome='" + std::string(to_string(s.outcome)) +
               "', t=" + py::repr(py::float_(s.t)).cast<std::string>() +
               ", message=" + py::repr(py::str(s.message)).cast<std::string>() + ")";
      });
  py::class_<JumpRecord>(m, "Jump", "A variable that jumped at an event.")
      .def_readonly("variable", &JumpRecord::variable)
      .def_readonly("before", &JumpRecord::before)
      .def_readonly("after", &JumpRecord::after)
      .def("__repr__", [](const JumpRecord& j) {
        return "Jump(" + j.variable + ": " + py::repr(py::float_(j.before)).cast<std::string>() +
               " -> " + py::repr(py::float_(j.after)).cast<std::string>() + ")";
      });
  py::class_<ImpulseRecord>(m, "Impulse",
                            "The integral of a Dirac impulse an impact source carried.")
      .def_readonly("variable", &ImpulseRecord::variable)
      .def_readonly("integral", &ImpulseRecord::integral)
      .def("__repr__", [](const ImpulseRecord& i) {
        return "Impulse(" + i.variable + ": " +
               py::repr(py::float_(i.integral)).cast<std::string>() + ")";
      });
  py::class_<TimeSensitivity>(m, "TimeSensitivity",
                              "d(t_event)/d(p): how an event's time moves with a sensitivity.")
      .def_readonly("sensitivity", &TimeSensitivity::sensitivity)
      .def_readonly("value", &TimeSensitivity::value)
      .def("__repr__", [](const TimeSensitivity& d) {
        return "TimeSensitivity(d(t)/d(" + d.sensitivity +
               ") = " + py::repr(py::float_(d.value)).cast<std::string>() + ")";
      });
  py::class_<CrossingRecord>(m, "CrossingFlip", "A crossing whose Boolean flipped.")
      .def_readonly("crossing", &CrossingRecord::crossing)
      .def_property_readonly("direction", [](const CrossingRecord& c) {
        return c.direction == CrossingDirection::kFalling ? "falling" : "rising";
      });
  py::class_<EventRecord>(
      m, "Event",
      "One event: time, kind, crossings, time events, jumps, impulses, and in a "
      "run with sensitivities d(t_event)/d(p).")
      .def_readonly("t", &EventRecord::t)
      .def_property_readonly("kind",
                             [](const EventRecord& e) { return std::string(to_string(e.kind)); })
      .def_readonly("crossings", &EventRecord::crossings)
      .def_readonly("time_events", &EventRecord::time_events)
      .def_readonly("iterations", &EventRecord::iterations)
      .def_readonly("jumps", &EventRecord::jumps)
      .def_readonly("impulses", &EventRecord::impulses)
      .def_readonly("time_sensitivities", &EventRecord::time_sensitivities)
      .def_readonly("note", &EventRecord::note)
      .def("__repr__", [](const EventRecord& e) {
        return "Event(t=" + py::repr(py::float_(e.t)).cast<std::string>() + ", kind='" +
               std::string(to_string(e.kind)) + "', " + std::to_string(e.jumps.size()) + " jumps)";
      });
}

/// The table: time and columns as numpy views, the column names with their units and kinds.
void bind_table(py::class_<ResultObject>& cls) {
  cls.def_property_readonly("time",
                            [](const py::object& self) {
                              const auto& t = self.cast<const ResultObject&>().result->table;
                              return view(t.time().data(), static_cast<py::ssize_t>(t.num_rows()),
                                          sizeof(double), self);
                            })
      .def("__getitem__", &column_view, py::arg("name"))
      .def("column", &column_view, py::arg("name"))
      .def_property_readonly("values", &values_view)
      .def_property_readonly("columns",
                             [](const ResultObject& r) {
                               std::vector<std::string> names;
                               for (const auto& c : r.result->table.columns())
                                 names.push_back(c.name);
                               return names;
                             })
      .def_property_readonly("units",
                             [](const ResultObject& r) {
                               py::dict units;
                               for (const auto& c : r.result->table.columns())
                                 units[py::str(c.name)] = c.unit;
                               return units;
                             })
      .def_property_readonly("kinds",
                             [](const ResultObject& r) {
                               py::dict kinds;
                               for (const auto& c : r.result->table.columns())
                                 kinds[py::str(c.name)] = std::string(to_string(c.kind));
                               return kinds;
                             })
      .def("__len__", [](const ResultObject& r) { return r.result->table.num_rows(); })
      .def("__contains__", [](const ResultObject& r, const std::string& name) {
        for (const auto& c : r.result->table.columns())
          if (c.name == name) return true;
        return false;
      });
}

/// What the run did besides the table: events, parameters, status, statistics, and the files
/// the example programs write.
void bind_run_record(py::class_<ResultObject>& cls) {
  cls.def_property_readonly("events", [](const ResultObject& r) { return r.result->events; })
      .def_property_readonly("parameters",
                             [](const ResultObject& r) {
                               py::dict d;
                               for (const ParameterInfo& p : r.parameters)
                                 d[py::str(p.name)] = p.value;
                               return d;
                             })
      .def_property_readonly("status", [](const ResultObject& r) { return r.result->status; })
      .def_property_readonly(
          "statistics", [](const ResultObject& r) { return statistics_dict(r.result->statistics); })
      .def("summary", [](const ResultObject& r) { return summary(*r.result); })
      .def(
          "write_csv",
          [](const ResultObject& r, const std::filesystem::path& path) {
            const ResultFiles files = write_result_files(*r.result, path, r.parameters);
            std::vector<std::filesystem::path> written{files.table};
            for (const auto& side : {files.units, files.events, files.params})
              if (!side.empty()) written.push_back(side);
            return written;
          },
          py::arg("path"),
          "Writes path (the table), <stem>.units.csv, <stem>.events.csv and <stem>.params.csv "
          "as the example programs do; returns the paths written.");
}

}  // namespace

void bind_result(py::module_& m) {
  bind_records(m);
  py::class_<ResultObject> cls(m, "Result", "The result of a run (table, events, status).");
  bind_table(cls);
  bind_run_record(cls);
}

}  // namespace hdae::python
